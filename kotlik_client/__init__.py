"""A typed Python client of the Kotlík API, standard library only.

```python
from kotlik_client import Client

server = Client("http://127.0.0.1:8000")
game = server.create("kupferkessel", [{"name": "Me"}, {"name": "Bot", "bot": "default"}])
me = server.seat(game["seats"][0]["token"])
while not (state := me.state(game["id"]))["over"]:
    if state["seat"] in state["to_move"]:
        me.play(game["id"], me.actions(game["id"])[0], expected_version=state["version"])
    else:
        me.wait(game["id"], state["version"])
```
"""

from kotlik_client.client import Client
from kotlik_client.errors import ProblemError
from kotlik_client.types import Appended, Command, CreatedGame, Event, Problem, Score, State, Summary

__all__ = [
    "Appended",
    "Client",
    "Command",
    "CreatedGame",
    "Event",
    "Problem",
    "ProblemError",
    "Score",
    "State",
    "Summary",
]
