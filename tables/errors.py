"""The one refusal: a message or a change that was not made. Nothing changed."""


class DoorError(Exception):
    """A refused message or change. `code` is the protocol's error code (docs/protocol.md), `message` says why."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message
