"""Triangles: draw lines between stars, close empty triangles, outscore your opponent."""

__version__ = "0.1.0"
