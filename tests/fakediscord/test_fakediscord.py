"""The fake Discord, exercised by the real discord.py client."""

from __future__ import annotations

import asyncio
import io
import json
import zlib
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

from tests.answers import answered_privately, answered_publicly, thinking, updated_the_message
from tests.fakediscord import FakeDiscord, InteractionNotAnswered, buttons, visible_text
from tests.fakediscord.fixtures import FakeWorld
from tests.fakediscord.limits import check_message
from tests.fakediscord.openapi import load_spec
from tests.fakediscord.users import CHANNEL_MESSAGE

# A tiny bot ---------------------------------------------------------------------------------


class TableView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="table:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(
            content=f"{interaction.user.name} joined", view=self
        )

    @discord.ui.button(label="Ignored", custom_id="table:ignored")
    async def ignored(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        return  # Never answers: the fake must notice.

    @discord.ui.select(
        custom_id="table:pick",
        options=[
            discord.SelectOption(label="Hearts", value="h"),
            discord.SelectOption(label="Spades", value="s"),
        ],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"picked {','.join(select.values)}", ephemeral=True)


class TinyBot(commands.Bot):
    def __init__(self, fake_world: FakeWorld) -> None:
        intents = discord.Intents.default()
        intents.members = True
        super().__init__(command_prefix="!", intents=intents, guild_ready_timeout=0.1)
        self.fake_world = fake_world
        self.errors: list[Exception] = []
        self.interactions: list[discord.Interaction] = []
        self.seen: dict[str, Any] = {}
        self.deleted_channels: list[int] = []
        add_commands(self)

    async def setup_hook(self) -> None:
        self.add_view(TableView())
        await self.tree.sync()

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        self.deleted_channels.append(channel.id)


def add_commands(bot: TinyBot) -> None:
    tree = bot.tree

    @tree.command(name="hand", description="Show my hand")
    async def hand(interaction: discord.Interaction) -> None:
        bot.interactions.append(interaction)
        perms = interaction.permissions
        bot.seen["hand"] = (
            interaction.channel,
            interaction.guild,
            perms.manage_messages,
            interaction.app_permissions.send_messages,
        )
        await interaction.response.send_message(
            f"cards in #{interaction.channel.name}", ephemeral=True
        )

    @tree.command(name="play", description="Open a table")
    @app_commands.describe(game="which game")
    async def play(
        interaction: discord.Interaction,
        game: str,
        seats: int = 4,
        fast: bool = False,
        rival: discord.Member | None = None,
    ) -> None:
        bot.seen["play"] = (game, seats, fast, rival)
        embed = discord.Embed(title=f"{game} table", description="Waiting for players")
        embed.add_field(name="Seats", value=str(seats)).set_footer(text="fast" if fast else "slow")
        sent = await interaction.response.send_message("Table open", embed=embed,
                                                       view=TableView())
        bot.seen["posted"] = sent.message_id if sent is not None else None

    @tree.command(name="slow", description="Defer, then follow up")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("done thinking")
        await interaction.followup.send("secret", ephemeral=True)

    @tree.command(name="twice", description="Answer twice")
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        try:  # Go around discord.py's own guard, as a buggy bot using raw HTTP would.
            await interaction.client.http.request(
                discord.http.Route(
                    "POST", "/interactions/{i}/{t}/callback", i=interaction.id, t=interaction.token
                ),
                json={"type": CHANNEL_MESSAGE, "data": {"content": "two"}},
            )
        except discord.HTTPException as exc:
            bot.errors.append(exc)

    @tree.command(name="late", description="Answer after the deadline")
    async def late(interaction: discord.Interaction) -> None:
        bot.fake_world.fake.clock.advance(3.5)
        try:
            await interaction.response.send_message("too late")
        except discord.HTTPException as exc:
            bot.errors.append(exc)

    @tree.command(name="big", description="Send an oversized message")
    async def big(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        try:
            await interaction.channel.send("x" * 2001)
        except discord.HTTPException as exc:
            bot.errors.append(exc)
        await interaction.followup.send("tried", ephemeral=True)

    @tree.command(name="thread", description="Open a table thread")
    async def thread(interaction: discord.Interaction) -> None:
        created = await interaction.channel.create_thread(
            name="fiasco-1", type=discord.ChannelType.public_thread
        )
        await created.send("Welcome to the table")
        await interaction.response.send_message(f"thread {created.id}", ephemeral=True)
        anchor = await interaction.channel.send("Table 2")
        await anchor.create_thread(name="from-message")

    @tree.command(name="log", description="Attach a JSON log")
    async def log(interaction: discord.Interaction) -> None:
        data = json.dumps({"moves": [1, 2, 3]}).encode()
        await interaction.response.send_message(
            "log", file=discord.File(io.BytesIO(data), filename="game.json")
        )

    @tree.command(name="history", description="Read the channel")
    async def history(interaction: discord.Interaction) -> None:
        msgs = [m.content async for m in interaction.channel.history(limit=10)]
        await interaction.response.send_message(" | ".join(msgs), ephemeral=True)


@pytest_asyncio.fixture
async def bot(fake_world: FakeWorld):
    client = TinyBot(fake_world)
    async with fake_world.fake.run_client(client):
        yield client


# Tests ----------------------------------------------------------------------------------------


async def test_login_ready_and_command_sync(fake_world: FakeWorld, bot: TinyBot) -> None:
    fake = fake_world.fake
    assert bot.user is not None and bot.user.id == fake.bot_user.id
    assert bot.application_id == fake.application_id
    guild = bot.get_guild(fake_world.guild.id)
    assert guild is not None and guild.name == fake_world.guild.name
    assert {c.name for c in guild.text_channels} == {"card-table", "lobby"}
    assert guild.get_member(fake_world.alice.id) is not None
    assert guild.get_member(fake_world.carol.id).guild_permissions.manage_messages
    assert fake.identify_count == 1 and fake.sync_count == 1
    assert set(fake.commands[None]) >= {"hand", "play", "slow", "thread"}
    play = fake.commands[None]["play"]
    assert [(o["name"], o["type"]) for o in play["options"]] == [
        ("game", 3),
        ("seats", 4),
        ("fast", 5),
        ("rival", 6),
    ]
    assert ("GET", "/users/@me") in [(r.method, r.path) for r in fake.requests]


async def test_gateway_frames_are_one_zlib_stream(fake_world: FakeWorld) -> None:
    fake = fake_world.fake
    frames = []
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(fake.gateway_url + "?v=10&encoding=json&compress=zlib-stream") as ws,
    ):
        inflater = zlib.decompressobj()
        hello = await ws.receive_bytes()
        assert hello.endswith(b"\x00\x00\xff\xff")
        frames.append(json.loads(inflater.decompress(hello)))
        await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 0}})
        for _ in range(2):
            frames.append(json.loads(inflater.decompress(await ws.receive_bytes())))
        await ws.send_json({"op": 1, "d": 2})
        frames.append(json.loads(inflater.decompress(await ws.receive_bytes())))
    assert frames[0]["op"] == 10 and frames[0]["d"]["heartbeat_interval"] > 0
    assert frames[1]["t"] == "READY" and frames[1]["d"]["guilds"][0]["unavailable"] is True
    assert frames[1]["d"]["application"]["id"] == str(fake.application_id)
    assert frames[2]["t"] == "GUILD_CREATE" and frames[2]["s"] == 2
    assert frames[3]["op"] == 11


async def test_slash_ephemeral_visible_only_to_its_user(
    fake_world: FakeWorld, bot: TinyBot
) -> None:
    fake, alice = fake_world.fake, fake_world.alice
    result = await fake.slash(alice, fake_world.table, "hand")
    assert answered_privately(result)
    assert result.message is not None and result.message.visible_to == alice.id
    assert result.text == "cards in #card-table"
    assert fake.ephemerals_for(alice) == [result.message]
    assert fake.ephemerals_for(fake_world.bob) == []
    assert fake.public_messages(fake_world.table) == []
    channel, guild, manage, app_send = bot.seen["hand"]
    assert channel.id == fake_world.table.id and guild.id == fake_world.guild.id
    assert manage is False and app_send is True
    await fake.slash(fake_world.carol, fake_world.table, "hand")
    assert bot.seen["hand"][2] is True  # carol has Manage Messages


async def test_slash_options_are_typed(fake_world: FakeWorld, bot: TinyBot) -> None:
    fake = fake_world.fake
    result = await fake.slash(
        fake_world.alice,
        fake_world.table,
        "play",
        {"game": "fiasco", "seats": 5, "fast": True, "rival": fake_world.bob},
    )
    game, seats, fast, rival = bot.seen["play"]
    assert (game, seats, fast) == ("fiasco", 5, True)
    assert isinstance(rival, discord.Member) and rival.id == fake_world.bob.id
    assert answered_publicly(result)
    message = result.message
    assert message is not None and fake.last_message(fake_world.table) is message
    assert "fiasco table" in message.text and "Seats\n5" in message.text
    assert [(b.custom_id, b.label, b.disabled) for b in message.buttons][:2] == [
        ("table:join", "Join", False),
        ("table:ignored", "Ignored", False),
    ]
    assert message.selects[0].custom_id == "table:pick"
    with pytest.raises(KeyError):
        await fake.slash(fake_world.alice, fake_world.table, "play", {"nope": 1})


async def test_button_click_updates_the_message(fake_world: FakeWorld, bot: TinyBot) -> None:
    fake = fake_world.fake
    table = (
        await fake.slash(fake_world.alice, fake_world.table, "play", {"game": "fiasco"})
    ).message
    assert table is not None
    result = await fake.click(fake_world.bob, table, "Join")
    assert updated_the_message(result) and result.message is table
    assert table.content == "bob joined" and table.edit_count == 1
    assert table.history[0]["content"] == "Table open"
    assert buttons(table.payload())[0].label == "Join"
    with pytest.raises(AssertionError):
        await fake.click(fake_world.bob, table, "No such button")


async def test_an_answer_is_back_once_the_bot_has_read_discords_reply(
    fake_world: FakeWorld, bot: TinyBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``slash`` and ``click`` return once the bot has Discord's reply to its answer (and
    has run on with it, as the bot notes the id of the message it posted), however slowly
    the reply reaches it: a person's next click never finds the bot a step behind."""
    adapter = discord.webhook.async_.AsyncWebhookAdapter
    request = adapter.request

    async def slow_to_read(self: Any, *args: Any, **kwargs: Any) -> Any:
        reply = await request(self, *args, **kwargs)
        await asyncio.sleep(0.2)  # the reply on a slow link: the fake has answered long since
        return reply

    monkeypatch.setattr(adapter, "request", slow_to_read)
    fake = fake_world.fake
    result = await fake.slash(fake_world.alice, fake_world.table, "play", {"game": "fiasco"})
    assert result.message is not None and bot.seen.get("posted") == result.message.id


async def test_select_menu(fake_world: FakeWorld, bot: TinyBot) -> None:
    fake = fake_world.fake
    table = (
        await fake.slash(fake_world.alice, fake_world.table, "play", {"game": "fiasco"})
    ).message
    result = await fake.select(fake_world.bob, table, "table:pick", ["s"])
    assert answered_privately(result) and result.text == "picked s"
    with pytest.raises(AssertionError):
        await fake.select(fake_world.bob, table, "table:pick", ["clubs"])


async def test_unanswered_click_is_a_violation(fake_world: FakeWorld, bot: TinyBot) -> None:
    fake = fake_world.fake
    table = (
        await fake.slash(fake_world.alice, fake_world.table, "play", {"game": "fiasco"})
    ).message
    with pytest.raises(InteractionNotAnswered):
        await fake.click(fake_world.alice, table, "table:ignored", timeout=0.3)
    assert [v.kind for v in fake.take_violations()] == ["unanswered"]


async def test_defer_then_followups(fake_world: FakeWorld, bot: TinyBot) -> None:
    fake = fake_world.fake
    result = await fake.slash(fake_world.alice, fake_world.table, "slow")
    assert thinking(result) and result.deferred
    followups = await result.wait_followups(2)
    assert followups[0] is result.message  # the first followup fills the "thinking" message
    assert followups[0].content == "done thinking" and not followups[0].ephemeral
    assert followups[1].content == "secret" and followups[1].visible_to == fake_world.alice.id
    assert [m.content for m in fake.public_messages(fake_world.table)] == ["done thinking"]


async def test_double_answer_gets_40060(fake_world: FakeWorld, bot: TinyBot) -> None:
    fake = fake_world.fake
    result = await fake.slash(fake_world.alice, fake_world.table, "twice")
    await fake.wait_for(lambda: bool(bot.errors))
    assert isinstance(bot.errors[0], discord.HTTPException) and bot.errors[0].code == 40060
    assert result.text == "one" and 40060 in result.error_codes
    assert [v.kind for v in fake.take_violations()] == ["double_response"]


async def test_late_answer_gets_10062(fake_world: FakeWorld, bot: TinyBot) -> None:
    fake = fake_world.fake
    result = await fake.slash(fake_world.alice, fake_world.table, "late")
    assert result.response_type is None and result.error_codes == [10062]
    await fake.wait_for(lambda: bool(bot.errors))
    assert isinstance(bot.errors[0], discord.NotFound) and bot.errors[0].code == 10062
    assert [v.kind for v in fake.take_violations()] == ["late_response"]


async def test_token_expires_after_15_minutes(fake_world: FakeWorld, bot: TinyBot) -> None:
    fake = fake_world.fake
    await fake.slash(fake_world.alice, fake_world.table, "hand")
    interaction = bot.interactions[-1]
    await interaction.edit_original_response(content="still fresh")
    fake.clock.advance(15 * 60 + 1)
    with pytest.raises(discord.HTTPException) as info:
        await interaction.edit_original_response(content="too old")
    assert (info.value.status, info.value.code) == (401, 50027)  # Invalid Webhook Token
    assert fake.ephemerals_for(fake_world.alice)[0].content == "still fresh"
    assert [v.kind for v in fake.take_violations()] == ["expired_token"]


async def test_oversized_message_is_a_limits_violation(fake_world: FakeWorld, bot: TinyBot) -> None:
    fake = fake_world.fake
    await fake.slash(fake_world.alice, fake_world.table, "big")
    await fake.wait_for(lambda: bool(bot.errors))
    assert bot.errors[0].code == 50035
    taken = fake.take_violations("limits")
    assert len(taken) == 1 and "content is 2001 chars" in taken[0].detail
    assert fake.public_messages(fake_world.table) == []


def test_limits_checker() -> None:
    button = {"type": 2, "style": 1, "label": "ok", "custom_id": "b"}
    rows = [{"type": 1, "components": [dict(button, custom_id=f"b{i}")]} for i in range(6)]
    assert any("6 action rows" in p for p in check_message("", [], rows))
    row = {"type": 1, "components": [dict(button, custom_id=f"c{i}") for i in range(6)]}
    assert any("6 buttons" in p for p in check_message("", [], [row]))
    select = {
        "type": 3,
        "custom_id": "s",
        "options": [{"label": str(i), "value": str(i)} for i in range(26)],
    }
    assert any(
        "26 options" in p
        for p in check_message("", [], [{"type": 1, "components": [select, dict(button)]}])
    )
    long = [{"type": 1, "components": [dict(button, custom_id="x" * 101, label="y" * 81)]}]
    problems = check_message("", [], long)
    assert any("custom_id" in p for p in problems) and any("label" in p for p in problems)
    embeds = [
        {"title": "t" * 256, "description": "d" * 4096},
        {"description": "d" * 2000, "footer": {"text": "f"}},
    ]
    assert any("embeds total" in p for p in check_message("", embeds, []))
    assert (
        check_message(
            "fine",
            [{"title": "ok", "fields": [{"name": "a", "value": "b"}]}],
            [{"type": 1, "components": [button]}],
        )
        == []
    )


def test_the_discord_openapi_spec_ships_with_the_tests() -> None:
    spec = load_spec()
    assert spec.match("POST", "/api/v10/channels/1/messages") is not None


def test_a_missing_openapi_spec_is_an_error_not_a_reason_to_validate_nothing(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="OpenAPI description is missing"):
        FakeDiscord(spec_path=tmp_path / "openapi.json")


async def test_openapi_violation_for_a_bad_body(fake_world: FakeWorld) -> None:
    fake = fake_world.fake
    url = f"{fake.api_base}/channels/{fake_world.table.id}/messages"
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as session:
        async with session.post(url, json={"content": "fine"}, headers=headers) as resp:
            assert resp.status == 200
        assert fake.violations == []
        bad = {"content": "x", "embeds": [{"title": 5}]}
        async with session.post(url, json=bad, headers=headers) as resp:
            assert resp.status == 200  # recorded, not rejected: the spec is a preview
    taken = fake.take_violations("openapi")
    assert len(taken) == 1 and "embeds/0/title" in taken[0].detail


async def test_bot_payloads_pass_openapi(fake_world: FakeWorld, bot: TinyBot) -> None:
    fake = fake_world.fake
    table = (
        await fake.slash(fake_world.alice, fake_world.table, "play", {"game": "fiasco"})
    ).message
    await fake.click(fake_world.bob, table, "Join")
    await fake.slash(fake_world.alice, fake_world.table, "log")
    await (await fake.slash(fake_world.alice, fake_world.table, "slow")).wait_followups(2)
    await fake.slash(fake_world.alice, fake_world.table, "hand")
    await bot.interactions[-1].edit_original_response(content="edited", view=TableView())
    await fake.slash(fake_world.alice, fake_world.table, "thread")
    await fake.wait_for(lambda: len(fake.threads(fake_world.table)) == 2)
    assert fake.violations == []
    spec = fake.spec
    validated = {
        spec.match(r.method, r.path).operation_id
        for r in fake.requests
        if r.body is not None and spec.match(r.method, r.path) is not None
    }
    assert validated >= {
        "bulk_set_application_commands",
        "create_interaction_response",
        "execute_webhook",
        "update_original_webhook_message",
        "create_message",
        "create_thread",
        "create_thread_from_message",
    }


async def test_thread_creation(fake_world: FakeWorld, bot: TinyBot) -> None:
    fake = fake_world.fake
    result = await fake.slash(fake_world.alice, fake_world.table, "thread")
    await fake.wait_for(lambda: len(fake.threads(fake_world.table)) == 2)
    thread, from_message = fake.threads(fake_world.table)
    assert thread.type == 11 and thread.name == "fiasco-1"
    anchor = fake.last_message(fake_world.table)
    assert from_message.id == anchor.id and anchor.content == "Table 2"  # Discord reuses the id
    assert result.text == f"thread {thread.id}"
    assert [m.content for m in fake.public_messages(thread)] == ["Welcome to the table"]
    await fake.wait_for(
        lambda: bot.get_guild(fake_world.guild.id).get_thread(thread.id) is not None
    )
    assert fake.session is not None
    assert any(f["t"] == "THREAD_CREATE" for f in fake.session.buffer)


async def test_channel_delete_reaches_the_bot(fake_world: FakeWorld, bot: TinyBot) -> None:
    fake = fake_world.fake
    await fake.delete_channel(fake_world.lobby)
    await fake.wait_for(lambda: fake_world.lobby.id in bot.deleted_channels)
    assert bot.get_channel(fake_world.lobby.id) is None
    with pytest.raises(discord.NotFound) as info:
        await bot.http.send_message(
            fake_world.lobby.id, params=discord.http.handle_message_parameters(content="hello?")
        )
    assert info.value.code == 10003


async def test_file_upload_is_stored(fake_world: FakeWorld, bot: TinyBot) -> None:
    fake = fake_world.fake
    result = await fake.slash(fake_world.alice, fake_world.table, "log")
    [attachment] = result.message.attachments
    assert attachment.filename == "game.json"
    assert json.loads(attachment.data) == {"moves": [1, 2, 3]}


async def test_history_and_visible_text(fake_world: FakeWorld, bot: TinyBot) -> None:
    fake = fake_world.fake
    await fake.slash(fake_world.alice, fake_world.table, "play", {"game": "fizzbin"})
    result = await fake.slash(fake_world.bob, fake_world.table, "history")
    assert result.text == "Table open"
    assert "fizzbin table\nWaiting for players" in visible_text(fake.last_message(fake_world.table))


async def test_unknown_route_is_recorded(fake_world: FakeWorld, bot: TinyBot) -> None:
    fake = fake_world.fake
    with pytest.raises(discord.NotFound):
        await bot.get_guild(fake_world.guild.id).fetch_emojis()
    assert fake.unknown_routes == [("GET", f"/guilds/{fake_world.guild.id}/emojis")]
    assert [v.kind for v in fake.take_violations()] == ["unknown_route"]


async def test_reconnect_resumes_the_session(fake_world: FakeWorld, bot: TinyBot) -> None:
    fake = fake_world.fake
    await fake.request_reconnect()
    await fake.wait_for(lambda: fake.resume_count == 1 and fake.connected)
    assert fake.identify_count == 1
    result = await fake.slash(fake_world.alice, fake_world.table, "hand")
    assert answered_privately(result)

    # A dropped connection: events sent meanwhile are replayed on RESUME.
    await fake.drop_connection()
    await fake.delete_channel(fake_world.lobby)
    await fake.wait_for(lambda: fake.resume_count == 2 and fake.connected)
    await fake.wait_for(lambda: fake_world.lobby.id in bot.deleted_channels)
    assert fake.identify_count == 1


async def test_wrong_token_fails_login(fake_world: FakeWorld) -> None:
    client = discord.Client(intents=discord.Intents.none())
    with pytest.raises(discord.LoginFailure):
        await client.login("not-the-token")
    await client.close()
