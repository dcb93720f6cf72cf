"""Fibonachos's knowledge for the computer players: the same place in every game.

``knowledge`` registers it with ``games.players`` (the world sampler and what the easy and
hard levels ask of this game), ``thumb`` holds the rules of thumb, ``fast`` the search's
fast copy of the game (and ``bits`` its card encoding). May import ``games.core``,
``games.players`` and this game's package; the rules of the game never import it.
"""
