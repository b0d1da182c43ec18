"""The serial link shared by the shoe and the shuffler: CRC, framing, transport, session.

See drivers/PROTOCOLS.md, part 1, for the wire format.
"""
