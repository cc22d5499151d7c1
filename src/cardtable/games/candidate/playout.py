"""Search-only moves of a Candidate state: a tree step and the random playouts.

A search (``bots/candidate_ismcts.py``) walks its tree with :func:`advance` and ends
each simulation with a uniformly random playout. The rule of a playout: a move is
``legal[int(uniform() * len(legal))]``, uniform over the legal moves in
:meth:`~cardtable.games.candidate.state.CandidateState.legal_actions` order, and a
forced move (one legal) takes no ``uniform()`` (nearly half the moves of a playout are
forced passes). It goes on until the deal or the match ends, or after ``moves`` moves.

* :func:`random_playout` reaches exactly the state that ``apply_action`` (or the
  checked ``apply``) reaches with the same moves: every move recorded.
* :func:`playout_margin` makes the same moves from the same numbers but keeps only the
  score and returns the deal's margin; the state is **spent** (left undefined: play a
  clone). Nothing is recorded and the lobby is kept as its size and its cards' points,
  which is all a capture's score needs (C15).

Both are one loop, :func:`_fused`, over local variables for a one-deck deal already
dealt (the legal moves and the moves inlined, a trick in its own inner loop, no method
call a move), with the recording switched on or off; other states (several decks, a
deal not yet dealt) take the move-by-move loop. ``tests/candidate`` checks both against
the checked path over random games, and ``tests/bots`` pins the search's decisions.

These functions are the pure-Python reference; :mod:`~cardtable.games.candidate.engine`
picks the compiled core's versions when it is built.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from cardtable.games.candidate.actions import (
    DRAW_BASE,
    LOBBY_BASE,
    PASS,
    PLAY_BASE,
    PLAY_CARDS,
    PLAY_LAST_RANK,
    PLAY_STEP,
    PLAY_STRIDE,
)
from cardtable.games.candidate.plays import RANK_KINDS, RANK_OF, one_deck_leads, one_deck_plays
from cardtable.games.candidate.position import (
    PHASE_DEAL,
    PHASE_DRAW,
    PHASE_LOBBY,
    PHASE_OVER,
    PHASE_PLAY,
)
from cardtable.games.candidate.scoring import CARD_POINTS

if TYPE_CHECKING:
    from cardtable.games.candidate.state import CandidateState

__all__ = ["advance", "playout_margin", "random_playout"]

#: C4, C10: the most cards a hand holds (``state.HAND_SIZE``).
_HAND_SIZE = 5
#: The non-empty piles by mask (bit X: pile X), each kind's bit, and the rank a run
#: needs after each rank index (none after the ace).
_PILES_OPEN = tuple(tuple(x for x in range(4) if mask >> x & 1) for mask in range(16))
_BIT = tuple(1 << kind for kind in range(52))
_NEXT_RANK = (*range(1, 13), -1)


def advance(state: CandidateState, action: int) -> Sequence[int]:
    """For a search's tree walk: ``apply_action``, then the legal moves of the next
    decision in the same deal, or an empty sequence when the move ended the deal (or
    the match, C13, C17). One call a move instead of four; the sequence is the state's
    own (read it before the next move, never change it)."""
    deal = state._deal_index
    state.apply_action(action)
    if state._deal_index != deal or state._phase == PHASE_OVER:
        return ()
    return state._legal or state._fresh_legal()


def random_playout(
    state: CandidateState, uniform: Callable[[], float], moves: int | None = None
) -> None:
    """Uniformly random legal moves until the deal or the match ends, or after
    ``moves`` moves (the module docstring): exactly the state ``apply_action`` reaches
    with the same moves."""
    budget = -1 if moves is None else moves
    if state._multi or state._phase in (PHASE_DEAL, PHASE_OVER):
        _by_moves(state, uniform, budget)
    else:
        _fused(state, uniform, budget, True)


def playout_margin(
    state: CandidateState, uniform: Callable[[], float], moves: int | None = None
) -> int:
    """:func:`random_playout`'s moves from the same numbers, keeping only the score:
    the current deal's margin (player 0's deal score minus player 1's, C15) when the
    deal ends or after ``moves`` moves. The state is spent (module docstring)."""
    budget = -1 if moves is None else moves
    if state._multi or state._phase in (PHASE_DEAL, PHASE_OVER):
        deal = state._deal_index
        _by_moves(state, uniform, budget)
        history = state._history
        scores = history[deal].scores if len(history) > deal else state._scores
        return scores[0] - scores[1]
    return _fused(state, uniform, budget, False)


def _by_moves(state: CandidateState, uniform: Callable[[], float], budget: int) -> None:
    """The playout one ``apply_action`` at a time (any state)."""
    deal = state._deal_index
    apply = state.apply_action
    compute = state.legal_actions
    while budget and state._phase != PHASE_OVER and state._deal_index == deal:
        legal = state._legal or compute()  # computed (and cached) when not cached
        apply(legal[int(uniform() * len(legal))] if len(legal) > 1 else legal[0])
        budget -= 1


def _keep_play(
    record: Callable[[int], None], hand: list[int], action: int, cards: tuple[int, ...]
) -> None:
    """A recording playout's play: the move recorded, its cards gone from the hand."""
    record(action)
    for kind in cards:
        hand.remove(kind)


def _fused(state: CandidateState, uniform: Callable[[], float], budget: int, keep: bool) -> int:
    """The playout of a one-deck deal already dealt, in one loop over local variables.

    ``keep``: record everything (moves, drawers, hands as lists, the lobby's cards,
    captures, discards, the end of the deal) and write the state back, as
    :func:`random_playout`; else only the scores, as :func:`playout_margin`. Returns the
    deal's margin (meaningful only without ``keep``).
    """
    # The state, in locals. Lists are changed in place; scalars are written back.
    hands = state._hands
    kinds = state._kinds
    tops = state._tops
    piles = state._piles
    pile_size = state._pile_size
    scores = state._scores
    record = state._moves.append
    drawers = state._drawers
    discards = state._discards
    captures = state._captures
    phase = state._phase
    player = state._player
    left = state._left
    mask = state._mask
    run_need = state._run_need
    set_need = state._set_need
    placer = state._placer
    passes = state._passes
    leader = state._leader
    # The lobby: its cards (kept only with ``keep``), its size and its cards' points (a
    # run scores their sum times the size, a set the size squared, one card its points).
    lobby = state._lobby
    size = len(lobby)
    card_points = CARD_POINTS
    points = sum(map(card_points.__getitem__, lobby))
    sizes = [len(hands[0]), len(hands[1])]
    # Cards held per rank index, two more entries always 0: index 13 (past the ace) and
    # -1 (no rank), so a need of -1 or 13 counts nothing.
    ranks = [[0] * 15, [0] * 15]
    for p in (0, 1):
        count = ranks[p]
        for kind in hands[p]:
            count[kind % 13] += 1
    # Tables and constants as locals (the loop reads them every move).
    rank_of = RANK_OF
    rank_kinds = RANK_KINDS
    play_base, play_stride = PLAY_BASE, PLAY_STRIDE
    play_cards, play_last, play_step = PLAY_CARDS, PLAY_LAST_RANK, PLAY_STEP
    piles_open, bit, next_rank = _PILES_OPEN, _BIT, _NEXT_RANK
    phase_play, phase_lobby, phase_draw = PHASE_PLAY, PHASE_LOBBY, PHASE_DRAW
    hand_size, pass_ = _HAND_SIZE, PASS
    plays_from, leads_from = one_deck_plays, one_deck_leads
    # Without a cut the budget stays -1 (a tick of 0): no new int object a move.
    tick = 0 if budget < 0 else 1
    ended = False
    while budget:
        if size:
            # A trick: C7, C8 (pass, or cards continuing the lobby), as legal_actions,
            # decided from the counts per rank where that is enough.
            while budget:
                budget -= tick
                count = ranks[player]
                at_run = count[run_need]
                at_set = count[set_need]
                if at_run or at_set:  # else C8: a forced pass
                    present = kinds[player]
                    if at_set < 2 and not (at_run and count[run_need + 1]):
                        # No second card can follow: pass or a one-card play, in id
                        # order (-1 stands for the pass).
                        if at_run + at_set == 1:  # = (pass, play)[int(uniform() * 2)]
                            if uniform() < 0.5:
                                kind = -1
                            else:
                                starts = present & (rank_kinds[run_need] | rank_kinds[set_need])
                                kind = starts.bit_length() - 1
                        else:
                            starts = present & (rank_kinds[run_need] | rank_kinds[set_need])
                            singles = [-1]
                            while starts:
                                low = starts & -starts
                                singles.append(low.bit_length() - 1)
                                starts ^= low
                            kind = singles[int(uniform() * len(singles))]
                        if kind >= 0:
                            # C6, C7: one card continues the lobby, as a set or a run.
                            if keep:
                                record(play_base + kind * play_stride)
                                hands[player].remove(kind)
                                lobby.append(kind)
                            kinds[player] = present ^ bit[kind]
                            sizes[player] -= 1
                            rank = rank_of[kind]
                            count[rank] -= 1
                            if rank == set_need:
                                run_need = -1
                            else:
                                run_need = next_rank[rank]
                                set_need = -1
                            size += 1
                            points += card_points[kind]
                            placer = player
                            passes = 0
                            player = 1 - player
                            continue
                    else:
                        legal = plays_from(present, False, run_need, set_need, [pass_])
                        action = legal[int(uniform() * len(legal))]
                        if action != pass_:
                            # C6, C7: cards from hand continue the lobby.
                            index = action - play_base
                            cards = play_cards[index]
                            if keep:
                                _keep_play(record, hands[player], action, cards)
                                lobby.extend(cards)
                            for kind in cards:
                                present ^= bit[kind]
                                count[rank_of[kind]] -= 1
                                points += card_points[kind]
                            kinds[player] = present
                            sizes[player] -= len(cards)
                            size += len(cards)
                            last = play_last[index]
                            if play_step[index] == 1 or (len(cards) == 1 and last != set_need):
                                run_need = next_rank[last]  # a run
                                set_need = -1
                            else:  # a set: every card of this rank
                                run_need = -1
                                set_need = last
                            placer = player
                            passes = 0
                            player = 1 - player
                            continue
                # A pass (C8): two in a row end the trick.
                if keep:
                    record(pass_)
                if passes:
                    break
                passes = 1
                player = 1 - player
            else:
                break  # the moves ran out within the trick
            # C8, C9: the trick is over (as the state's _end_trick).
            if placer >= 0:  # C9, C15: the last placer takes the lobby and scores it
                if size == 1:
                    scores[placer] += points
                elif set_need >= 0:  # a set
                    scores[placer] += size * size
                else:  # a run
                    scores[placer] += points * size
                if keep:
                    captures[placer].append(tuple(lobby))
                    lobby = []
                leader = placer  # C11
                size = 0
                if left:  # C10: the taker draws up to five, then the opponent
                    if sizes[placer] < hand_size:
                        phase = phase_draw
                        player = placer
                        continue
                    if sizes[1 - placer] < hand_size:
                        phase = phase_draw
                        player = 1 - placer
                        continue
            elif keep:  # C9: nobody played onto the turned card: discarded
                discards.append(lobby[0])
                lobby = []
            size = 0
        elif phase == phase_play:
            # C12: empty piles and an empty lobby: the leader starts it from hand.
            budget -= tick
            present = kinds[player]
            if not present:  # no cards: pass, and the opponent leads
                if keep:
                    record(pass_)
                leader = player = 1 - player
                continue
            leads = leads_from(present)
            action = leads[int(uniform() * len(leads))] if len(leads) > 1 else leads[0]
            index = action - play_base
            cards = play_cards[index]
            if keep:
                _keep_play(record, hands[player], action, cards)
                lobby = list(cards)
            # The lobby starts with these cards (C12).
            count = ranks[player]
            size = len(cards)
            sizes[player] -= size
            points = 0
            for kind in cards:
                present ^= bit[kind]
                count[rank_of[kind]] -= 1
                points += card_points[kind]
            kinds[player] = present
            last = play_last[index]
            step = play_step[index]
            # A run (step 1), a set (step 2), or one card, which leaves both open.
            run_need = -1 if step == 2 or last == 12 else last + 1
            set_need = -1 if step == 1 else last
            placer = player
            passes = 0
            player = 1 - player
            continue
        else:
            # C5, C11 `lobby X` turns the top card of pile X (a trick begins); C10
            # `draw X` takes it into the drawer's hand.
            budget -= tick
            open_piles = piles_open[mask]
            pile = (
                open_piles[int(uniform() * len(open_piles))]
                if len(open_piles) > 1
                else open_piles[0]
            )
            top = tops[pile]
            tops[pile] = taken = top + 1
            if taken == pile_size:
                mask &= ~(1 << pile)
            left -= 1
            kind = piles[pile][top]
            if phase == phase_lobby:
                if keep:
                    record(LOBBY_BASE + pile)
                    lobby = [kind]
                size = 1
                points = card_points[kind]
                rank = rank_of[kind]
                run_need = next_rank[rank]
                set_need = rank
                phase = phase_play
                player = leader
                continue
            if keep:
                record(DRAW_BASE + pile)
                hands[player].append(kind)
                drawers.append(player)
            kinds[player] |= bit[kind]
            ranks[player][rank_of[kind]] += 1
            sizes[player] += 1
            if left:
                if sizes[player] < hand_size:
                    continue
                if player == leader and sizes[1 - player] < hand_size:
                    player = 1 - player
                    continue
        # As the state's _need_lobby: C11 turn a lobby card; C12 lead from hand; C13 the
        # deal is over.
        passes = 0
        placer = -1
        if left:
            phase = phase_lobby
            player = 1 - leader
        elif kinds[0] or kinds[1]:
            phase = phase_play
            player = leader
        else:
            ended = True
            break
    if keep:
        state._phase = phase
        state._player = player
        state._left = left
        state._mask = mask
        state._lobby = lobby
        state._run_need = run_need
        state._set_need = set_need
        state._placer = placer
        state._passes = passes
        state._leader = leader
        state._legal = None
        if ended:
            state._end_deal()
    return scores[0] - scores[1]
