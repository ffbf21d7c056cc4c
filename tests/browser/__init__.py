"""Browser tests of the ChatWidget front end (headless Chromium through Playwright)."""
