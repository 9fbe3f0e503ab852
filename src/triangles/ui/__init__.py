"""The pygame user interface: rendering (``render``) and scenes (``scenes``)."""
