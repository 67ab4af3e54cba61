"""The accounts app's pages, a module per area; each view reads the request, calls one service
(`accounts.services`) or Django's own auth view, and renders a `registration/` template.

- `signup`: signing up (from an invite link too, which joins its club) and logging in.
- `passwords`: the page a password link opens (a club owner's or an emailed one), "Forgot your
  password?" (where the site sends email), changing one's password.
- `deletion`: deleting one's account.
- `lockout`: the login's lockout on every other form where a password is typed.
"""
