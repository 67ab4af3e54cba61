"""What the browser tests hold every page to: no console error, no uncaught error and no
Content Security Policy violation in normal use. `CONSOLE_ERRORS` watches every context a test
opens (the `browser` fixture's, and any other a test makes: `CONSOLE_ERRORS.watch(context)`),
and the `console_errors` fixture (tests/browser/conftest.py) fails the test on what it saw.

A helper module, not a conftest: its one watcher is shared by the conftest and the tests.
"""

import re

# Chromium's own line for an answer with an error status. Allowed only for a page the test
# opened, or a form it sent, whose answer is an error page on purpose (a 404, a 403 refusal, the
# 500 page): the page itself logs nothing. A script, style sheet or htmx request so answered
# (a subresource) is no such page, and fails the test.
ERROR_STATUS = re.compile(r"^console error: Failed to load resource: the server responded with a")


# Chromium's own console line for a Content Security Policy violation. The page's
# `securitypolicyviolation` event (`CSP_WATCH`) says the same violation with what was refused
# and where, so the violation is counted once, from the event.
CSP_CONSOLE_LINE = re.compile(r"Content Security Policy directive")

# Run in every page and frame before its own scripts: each violation of the site's Content
# Security Policy, handed to the test (`reportCspViolation`, a binding of the context), with the
# directive, the script that caused it and the element refused, which Chromium's line leaves out.
CSP_WATCH = """
addEventListener("securitypolicyviolation", (event) => {
  const target = event.target;
  const element = target instanceof Element ? " on " + target.outerHTML.slice(0, 160) : "";
  const where = `${event.sourceFile || location.href}:${event.lineNumber}`;
  const refused = event.blockedURI || "inline";
  reportCspViolation(`${event.effectiveDirective} refused ${refused} at ${where}${element}`);
}, true);
"""


def unexpected_lines(
    seen: list[tuple[str, str]], error_pages: set[str], allowed: list[re.Pattern[str]]
) -> list[str]:
    """Of what was `seen` (line, url), what neither an error page nor an `allowed` pattern
    allows."""
    return [
        line
        for line, where in seen
        if not (ERROR_STATUS.search(line) and where in error_pages)
        and not any(pattern.search(line) for pattern in allowed)
    ]


class ConsoleErrors:
    """Every console error, uncaught page error and Content Security Policy violation of the
    pages a test opens, in every browser context it opens (see `WatchedBrowser`), kept for the
    test that opened the context."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] | None = None  # of the test running now: (line, url)
        self.error_pages: set[str] = set()  # the test's pages answered with an error status

    def watch(self, context) -> None:
        seen, error_pages = self.seen, self.error_pages
        if seen is None:  # a context opened outside a test: nobody to tell
            return

        def console(message) -> None:
            if message.type == "error" and not CSP_CONSOLE_LINE.search(message.text):
                where = message.location.get("url", "")
                seen.append((f"console error: {message.text} ({where})", where))

        def response(answer) -> None:
            if answer.request.resource_type == "document" and answer.status >= 400:
                error_pages.add(answer.url)

        def csp_violation(source, text: str) -> None:
            seen.append((f"CSP violation: {text}", source["frame"].url))

        context.on("console", console)
        context.on("response", response)
        context.on("weberror", lambda error: seen.append((f"page error: {error.error}", "")))
        context.expose_binding("reportCspViolation", csp_violation)
        context.add_init_script(CSP_WATCH)

    def start(self) -> list[tuple[str, str]]:
        self.seen, self.error_pages = [], set()
        return self.seen

    def unexpected(self, allowed: list[re.Pattern[str]]) -> list[str]:
        """What was seen that neither an error page nor the test's `console_errors` marks
        allow."""
        found = unexpected_lines(self.seen or [], self.error_pages, allowed)
        self.seen = None
        return found


CONSOLE_ERRORS = ConsoleErrors()
