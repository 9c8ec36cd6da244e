"""gpu-advisor: why is my GPU code slow or broken, answered from measurements on this machine."""

__version__ = "0.1.0"
