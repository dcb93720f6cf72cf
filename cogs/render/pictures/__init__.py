"""The table and the hand as pictures (Pillow), the text staying for screen readers.

``picture`` holds a :class:`~cogs.render.pictures.picture.Picture` (the PNG bytes, the
alt text that names every card shown, the file name) and what makes one from a table's
snapshot or from a game at no table; ``scene`` what a picture shows, ``draw`` and
``faces`` the drawing, ``painter`` the worker processes that draw for the bot (never on
the event loop), ``samples`` the pictures of every game shown in the docs.
"""
