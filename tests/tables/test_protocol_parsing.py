"""tables.protocol: every frame a client can get wrong is refused with the protocol's code before the door runs."""

import pytest

from tables.protocol import BadMessage, Command, parse_action, parse_frame


def refused(frame, code):
    with pytest.raises(BadMessage) as caught:
        parse_frame(frame, 7)
    assert caught.value.code == code, caught.value.message
    assert caught.value.message
    return caught.value


@pytest.mark.parametrize(
    "frame, code",
    [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_json"),
        ('{"type": "sit", "amount": ' + "[" * 1000 + "]" * 1000 + "}", "bad_field"),  # deep, yet parsed
        ('{"type": "sit", "amount": ' + "[" * 1100 + "]" * 1100 + "}", "bad_json"),  # deeper than orjson goes
        ('{"type": "chat", "text": "' + "x" * 5000 + '"}', "bad_json"),  # a huge frame
        ('{"type": "bet", "amount": 10, "id": "a\\u0000b"}', "bad_field"),  # NUL in an id
        ('{"type": "bet", "amount": 10, "id": 5}', "bad_field"),
        ('{"type": "teleport"}', "unknown_type"),
        ('{"type": "timeout"}', "unknown_type"),  # the clock's alone
        ('{"type": "bet", "amount": "ten"}', "bad_field"),
        ('{"type": "bet", "amount": 10.5}', "bad_field"),
        ('{"type": "bet", "amount": true}', "bad_field"),
        ('{"type": "bet", "amount": -100}', "out_of_range"),
        ('{"type": "bet"}', "bad_field"),
        ('{"type": "fold", "amount": 10}', "bad_field"),
        ('{"type": "open", "card": 3}', "out_of_range"),
        ('{"type": "open"}', "bad_field"),
        ('{"type": "bet", "amount": 10, "seat": 2}', "bad_field"),
        ('{"type": "fold", "table": 8}', "wrong_table"),
        ('{"type": "bet", "amount": 99999999999999999999999}', "bad_field"),  # beyond 64 bits: a float
    ],
)
def test_a_bad_frame_is_refused_with_its_code(frame, code):
    refused(frame, code)


def test_a_refusal_answers_the_message_id_when_it_had_a_valid_one():
    assert refused('{"type": "bet", "amount": "x", "id": "m1"}', "bad_field").id == "m1"
    assert refused('{"type": "bet", "amount": 1, "id": ""}', "bad_field").id is None


def test_a_good_frame_is_a_typed_command():
    request = parse_frame('{"type": "sit", "amount": 400, "seat": 3, "id": "a1", "table": 7}', 7)
    assert request.type == "sit" and request.id == "a1"
    assert request.command == Command("sit", amount=400, seat=3)
    assert parse_frame(b'{"type": "open", "card": 2}', 7).command == Command("open", card=2)
    assert parse_frame('{"type": "chat", "text": "gl"}', 7).text == "gl"
    assert parse_action({"kind": "fold"}) == Command("fold")
