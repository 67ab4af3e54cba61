"""The accounts app: signing up, logging in and out, passwords (changing one's own, "Forgot your
password?" by email, the page a club owner's one-time link opens), deleting one's account.
`views/`, `forms`, `services` (its writes), `urls` (under /accounts/, names without a
namespace), `context_processors` (where the header's log-in links come back to); templates in
`templates/registration/`. No models: the accounts are Django's.

It sits above the scoring app, which never imports it: an invite joins its club at sign-up,
deleting an account leaves its clubs, and the owner making a member's link is a club action
(`scoring.services.reset_links`).
"""
