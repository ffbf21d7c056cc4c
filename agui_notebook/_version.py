"""The package version (one place: the public surface and the OpenTelemetry scope read it)."""

__version__ = "0.1.0"
