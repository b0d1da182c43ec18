"""The table controller: everything on the box that is not a device driver."""

__version__ = "0.1.0"
