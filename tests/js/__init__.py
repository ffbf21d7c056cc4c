"""The front end's own checks: its type check, lint and unit tests (run by npm in js/)."""
