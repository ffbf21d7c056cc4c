"""The wire: bytes and text in any slices -> JSON values with where each came from (private room)."""
