"""Several server processes sharing tables (docs/deploy.md, docs/server.md "Several
processes"): :mod:`.node` (ownership, hand-over), :mod:`.keeper` (lease renewal on its
own thread), :mod:`.relay` (WebSockets relayed to a table's owner), :mod:`.forward`
(HTTP requests run by a table's owner), :mod:`.errands` (errands run by a table's
owner, news told to every process) and :mod:`.bus` (messages on Redis).

The live tables (:mod:`cardtable.server.runtime`) use this package only through
:class:`cardtable.server.ownership.Ownership`, and it uses them only through
:class:`cardtable.server.ownership.Tables`.
"""

from cardtable.server.cluster.forward import FORWARDED
from cardtable.server.cluster.keeper import LeaseKeeper
from cardtable.server.cluster.node import ORPHAN_WAIT, Cluster, instance_id, preferred
from cardtable.server.cluster.relay import RemoteSocket
from cardtable.server.ownership import RECONNECT

__all__ = [
    "FORWARDED",
    "ORPHAN_WAIT",
    "RECONNECT",
    "Cluster",
    "LeaseKeeper",
    "RemoteSocket",
    "instance_id",
    "preferred",
]
