"""Helpers shared by several test folders: node references, Chromium, loopback servers, pydantic-ai runs."""
