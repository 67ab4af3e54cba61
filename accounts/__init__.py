"""The accounts app: signing up, logging in and out, passwords (changing one's own, "Forgot
your password?" by email, and the page a club owner's one-time password link opens), and
deleting one's account. It has no models of its own: the accounts are Django's.

It sits above the scoring app (an invite joins its club at sign-up; deleting an account leaves
its clubs; an owner's link is bound to the club) and the scoring app never imports it: the
owner making a member's link is a club action, in `scoring.services.reset_links` and the
members' views.

- `views/`: `signup` (signing up, from an invite too; logging in), `passwords`, `deletion`,
  and `lockout` (django-axes's lockout, kept on every form where a password is typed).
- `forms`: signing up, deleting one's account.
- `services`: every write of the app, one keyword-only transactional function each.
- `urls`: every address under /accounts/, with names and no namespace (`LOGIN_URL = "login"`).
- `context_processors`: where the header's "Log in" and "Sign up" links come back to.

Its pages' templates are Django's usual `templates/registration/`.
"""
