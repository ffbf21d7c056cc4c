"""The test suite: a package, so every folder imports the same way (``from tests.support.loopback import ...``)."""
