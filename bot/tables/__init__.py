"""The table service: every table in play, and the one path every decision takes.

Lives here: the service the Discord layer talks to (``service.TableService``), the registry of
open tables (one per channel or thread), the lobby, the one action path (seat, turn, stale
menu and legality checked once, under the table's lock, then saved before anyone is
answered), the checks and refusals, the snapshots a hand menu is drawn from, seats and
takeovers, turn timers and the scheduler, computer players (run in worker processes),
results, expiry and the restart. May import ``bot.models``, ``bot.settings``,
``bot.logs``, the store's protocols (``bot.store.api``) and the rules library (``games``);
never ``discord`` or ``cogs``, and never a store implementation (the process hands one in).
"""
