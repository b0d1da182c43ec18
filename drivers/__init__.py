"""Device drivers: each device is a protocol (pure), a transport and an async device."""
