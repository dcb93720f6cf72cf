"""Nothing leaks and nothing crosses: what a hostile member or a cheating player could try
through a real client, each refused privately and changing nothing."""

from __future__ import annotations

from pathlib import Path

from tests.answers import answered_privately
from tests.botdriver import running_bot
from tests.fakediscord.fixtures import FakeWorld


async def test_odd_option_values_get_a_plain_refusal(fake_world: FakeWorld, tmp_path: Path,
                                                     caplog) -> None:
    """``"²"`` and 5,000 digits pass ``str.isdigit`` but not ``int()``: refused in words."""
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path) as bot:
        for given, quoted in (("²", '"²"'), ("1" * 5000, '"' + "1" * 23 + "…\""),
                              ("2,٣", None)):
            refused = await fake.slash(world.alice, world.table, "play fazes",
                                       {"fazes": given})
            assert answered_privately(refused), refused
            assert "Those Fazes options will not do: `fazes` was given" in refused.text
            assert quoted is None or quoted in refused.text
            assert len(refused.text) < 200
        assert bot.sessions.in_channel(world.table.id) is None
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


async def test_status_in_a_direct_message_names_no_server(fake_world: FakeWorld,
                                                          tmp_path: Path) -> None:
    world, fake = fake_world, fake_world.fake
    async with running_bot(fake, tmp_path):
        opened = await fake.slash(world.alice, world.table, "play fiasco")
        assert not opened.ephemeral
        answer = await fake.slash(world.carol, fake.dm_channel(world.carol), "status", {})
        assert answered_privately(answer), answer
        assert "use it in one" in answer.text and "Open tables" not in answer.text
