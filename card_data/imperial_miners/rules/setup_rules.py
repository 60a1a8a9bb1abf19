"""Setup of Imperial Miners (rulebook, « Mise en place »; card_data/imperial_miners/RULES.md)."""

from __future__ import annotations

import random
from typing import Annotated, Any

from pydantic import Field

from cardforge.data.loading import GameData
from cardforge.data.models import Model
from cardforge.problems import Problem, short_repr

from .cards import MineTemplate

EVENTS_PER_GAME = 10  # « piochez-en 10 pour former le paquet Événement »
DRAW = {"I": 2, "II": 3, "III": 3}  # « 8 cartes Mine (2 cartes I, 3 cartes II et 3 cartes III) »
KEEP = 4  # « Il conserve 4 cartes parmi celles-ci »
FIRST_GAME_DRAW = {"I": 2, "II": 2, "III": 2}  # « Lors de votre première partie … 2 cartes I, 2 II, 2 III »
FIRST_GAME_KEEP = 6  # « et conservez les 6 cartes »
HAND_LIMIT = 8  # « Vous avez une limite de 8 cartes en main »
ROUNDS = 10  # « Une partie se joue en 10 manches »

#: The published mine cards are not in card_data, so the deal gives counts per level.
MINE_CARDS_NOTE = ("the published mine cards are not in card_data: each player draws the counts "
                   "above from the shuffled level decks at the table")


def setup_counts(first_game: bool) -> dict[str, Any]:
    return {
        "events": EVENTS_PER_GAME,
        "draw": dict(FIRST_GAME_DRAW if first_game else DRAW),
        "keep": FIRST_GAME_KEEP if first_game else KEEP,
        "hand_limit": HAND_LIMIT,
        "rounds": ROUNDS,
    }


def _cards(draw: dict[str, int]) -> str:
    parts = [f"{n} cartes {level}" for level, n in draw.items()]
    return ", ".join(parts[:-1]) + f" et {parts[-1]}"


def setup_steps(players: int, first_game: bool, counts: dict[str, Any]) -> list[str]:
    """The rulebook's checklist, with this game's numbers (addressed to « vous » when solo)."""
    solo = players == 1
    draw, keep = counts["draw"], counts["keep"]
    cards = f"{sum(draw.values())} cartes Mine ({_cards(draw)})"
    if first_game:
        hand = (f"Première partie : piochez {cards} et conservez-les toutes." if solo
                else f"Première partie : chaque joueur pioche {cards} et les conserve toutes.")
    else:
        hand = (f"Piochez {cards}, conservez-en {keep} et défaussez le reste." if solo
                else f"Chaque joueur pioche {cards}, en conserve {keep} et défausse le reste.")
    colour = ("Prenez le marqueur Progrès et le plateau Surface de la couleur de votre choix (la donne en "
              "propose une) ; placez le marqueur sous les plateaux Progrès et le plateau Surface à "
              "l'horizontale devant vous." if solo else
              "Chaque joueur prend le marqueur Progrès et le plateau Surface de la couleur de son choix (la "
              "donne en propose une) ; il place le marqueur sous les plateaux Progrès et le plateau Surface "
              "à l'horizontale devant lui.")
    steps = [
        "Placez les plateaux Progrès chacun sur une face tirée au hasard au centre de "
        "la zone de jeu.",
        "Mélangez séparément chaque paquet de cartes Mine selon son niveau (I, II, III, IV) et placez-les "
        "face cachée près des plateaux Progrès. Les cartes IV sont toutes identiques : inutile de les "
        "mélanger.",
        f"Mélangez les cartes Événement et piochez-en {counts['events']} pour former le paquet Événement, "
        "face cachée, à côté des cartes Mine. Rangez le reste dans la boîte.",
        "Placez les jetons Pièce, Point de victoire, Éboulement, Machine et Chariot près des plateaux : "
        "c'est la réserve. Jetons et paquets sont illimités (remélangez la défausse d'un paquet épuisé).",
        colour,
        hand,
        f"Limite de main : {counts['hand_limit']} cartes. La partie dure {counts['rounds']} manches (phase "
        "Événement, puis phase Mine) ; après la dernière carte Événement, jouez une dernière phase Mine "
        "et comptez les points.",
    ]
    if solo:
        steps.append("Mode solo : mêmes règles ; comparez votre score final au tableau des grades.")
    return steps


def deal(data: GameData[MineTemplate], players: int, first_game: bool, rng: random.Random) -> dict[str, Any]:
    """The event deck (top card first), the progress board sides, a colour per player and
    each player's draw (counts per level: the published cards are not in the data)."""
    counts = setup_counts(first_game)
    events = rng.sample([e.id for e in data.sections["events"]], counts["events"])
    progress = _progress_board(data)
    sides = [{"board": n, "side": rng.choice(progress.sides)} for n in range(1, progress.count + 1)]
    # « Chaque joueur prend … la couleur de son choix »: the deal only suggests one.
    colours = rng.sample([c.id for c in data.sections["colours"]], players)
    return {
        "first_game": first_game,
        "events": events,
        "progress_boards": sides,
        "players": [{"player": n, "colour": colour, "draw": dict(counts["draw"]), "keep": counts["keep"]}
                    for n, colour in enumerate(colours, start=1)],
        "mine_cards": MINE_CARDS_NOTE,
    }


def _progress_board(data: GameData[MineTemplate]) -> Any:
    return next(b for b in data.sections["board_rules"] if b.id == "progres")


# --- a described deal: ``cardforge setup imperial_miners --check FILE`` --------------------

Count = Annotated[int, Field(ge=0, strict=True)]
Number = Annotated[int, Field(ge=1, strict=True)]


class PlayerDeal(Model):
    player: Number
    colour: str
    draw: dict[str, Count]  # level → cards drawn
    keep: Count


class ProgressSide(Model):
    board: Number
    side: str


class DealFile(Model):
    """The ``deal`` printed by ``cardforge setup imperial_miners --json`` (or the whole printed
    object, or written by hand). ``mine_cards`` (the deal's note) is checked when given; ``seed``
    is the record of the seed that made the deal, accepted as it is."""

    first_game: bool = False
    events: list[str]
    progress_boards: list[ProgressSide]
    players: list[PlayerDeal]
    mine_cards: str | None = None
    seed: int | None = None

    def setup_request(self) -> tuple[int | None, str | None, dict[str, Any] | None]:
        """(players, mode, options) this deal is for: the engine checks the printed counts and
        checklist of a whole ``--json`` object against them."""
        return len(self.players), None, {"first_game": self.first_game}


def check_setup(data: GameData[MineTemplate], setup: DealFile, min_players: int, max_players: int) -> list[Problem]:
    problems = []
    count = len(setup.players)
    if not min_players <= count <= max_players:
        problems.append(Problem(f"{count} given, imperial_miners supports {min_players}–{max_players}",
                                field="players"))
    problems += _check_events(data, setup.events)
    problems += _check_progress(data, setup.progress_boards)
    problems += _check_players(data, setup)
    if setup.mine_cards is not None and setup.mine_cards != MINE_CARDS_NOTE:
        problems.append(Problem(f"got {short_repr(setup.mine_cards)}, expected the deal's note {MINE_CARDS_NOTE!r}",
                                field="mine_cards"))
    return problems


def _check_events(data: GameData[MineTemplate], events: list[str]) -> list[Problem]:
    known = [e.id for e in data.sections["events"]]
    problems = []
    if len(events) != EVENTS_PER_GAME:
        problems.append(Problem(f"must hold {EVENTS_PER_GAME} of the {len(known)} events, got {len(events)}",
                                field="events"))
    for i, event in enumerate(events):
        if event not in known:
            problems.append(Problem(f"unknown event {short_repr(event)} (events: {known[0]} … {known[-1]})",
                                    field=f"events[{i}]"))
        elif event in events[:i]:
            problems.append(Problem(f"{short_repr(event)} is dealt twice (first at events[{events.index(event)}])",
                                    field=f"events[{i}]"))
    return problems


def _check_progress(data: GameData[MineTemplate], boards: list[ProgressSide]) -> list[Problem]:
    progress = _progress_board(data)
    problems = []
    numbers = sorted(b.board for b in boards)
    if numbers != list(range(1, progress.count + 1)):
        problems.append(Problem(f"must give each board 1 to {progress.count} once, got boards {numbers}",
                                field="progress_boards"))
    for i, board in enumerate(boards):
        if board.side not in progress.sides:
            problems.append(Problem(f"must be one of {', '.join(progress.sides)}, got {short_repr(board.side)}",
                                    field=f"progress_boards[{i}].side"))
    return problems


def _check_players(data: GameData[MineTemplate], setup: DealFile) -> list[Problem]:
    counts = setup_counts(setup.first_game)
    colours = [c.id for c in data.sections["colours"]]
    game = "in a first game" if setup.first_game else "in a normal game (first game: first_game: true)"
    problems = []
    taken: set[str] = set()  # the colours of the earlier players (a set: linear in the players, issue 21)
    for index, player in enumerate(setup.players, start=1):
        item = f"player #{index}"
        if player.player != index:
            problems.append(Problem(f"players are numbered 1 to {len(setup.players)} in order, got {player.player}",
                                    item=item, field="player"))
        if player.colour not in colours:
            problems.append(Problem(f"unknown colour {short_repr(player.colour)} (colours: {', '.join(colours)})",
                                    item=item, field="colour"))
        elif player.colour in taken:
            problems.append(Problem(f"colour {short_repr(player.colour)} is taken by an earlier player",
                                    item=item, field="colour"))
        taken.add(player.colour)
        if player.draw != counts["draw"]:
            problems.append(Problem(f"must be {_levels(counts['draw'])} {game}, got {_levels(player.draw)}",
                                    item=item, field="draw"))
        if player.keep != counts["keep"]:
            problems.append(Problem(f"must be {counts['keep']} {game}, got {player.keep}", item=item,
                                    field="keep"))
    return problems


def _levels(draw: dict[str, int]) -> str:
    return ", ".join(f"{level}: {n}" for level, n in draw.items()) or "nothing"
