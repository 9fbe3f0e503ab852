"""Scenes of the game window, one per file: menu, new game, play, final, review, dialogs."""
