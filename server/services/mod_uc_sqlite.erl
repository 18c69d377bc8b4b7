%% The project's ejabberd on SQLite (server/services/ejabberd.ts compiles this on every start).
%%
%% Every 1:1 message is written to two archives (sender's and recipient's) in the path of its
%% delivery, one SQLite transaction each, on ejabberd's single SQLite connection. With SQLite's
%% defaults (rollback journal, synchronous=FULL) each of those is four fdatasync calls plus a
%% journal file created and deleted: most of a round trip's time, and much more when other
%% processes keep the disk busy. In WAL mode with synchronous=NORMAL a commit is one append to the
%% WAL file and no sync; the WAL is synced at checkpoints. A committed message survives ejabberd
%% (or the machine's other processes) crashing; only a power loss or kernel crash may lose the last
%% commits. ejabberd has no option for SQLite pragmas, hence this module.
%%
%% ejabberd's gen_mod calls the exported functions (no -behaviour: compiled without ejabberd's path).
-module(mod_uc_sqlite).
-export([start/2, stop/1, reload/3, depends/2, mod_options/1, mod_doc/0]).

%% Listed in ejabberd.yml only when the storage is SQLite.
start(Host, _Opts) ->
    tune(Host).

stop(_Host) -> ok.

reload(_Host, _NewOpts, _OldOpts) -> ok.

depends(_Host, _Opts) -> [].

mod_options(_Host) -> [].

mod_doc() -> #{desc => ["SQLite in WAL mode with synchronous=NORMAL for the project's ejabberd."]}.

%% journal_mode=WAL is stored in the database file; synchronous is per connection, and ejabberd
%% keeps one connection per host (a reconnect falls back to FULL: slower, never less safe).
tune(Host) ->
    {selected, _, [[Mode]]} = ejabberd_sql:sql_query(Host, [<<"PRAGMA journal_mode=WAL">>]),
    {updated, _} = ejabberd_sql:sql_query(Host, [<<"PRAGMA synchronous=NORMAL">>]),
    {selected, _, [[Sync]]} = ejabberd_sql:sql_query(Host, [<<"PRAGMA synchronous">>]),
    logger:notice("mod_uc_sqlite: journal_mode=~ts synchronous=~ts", [Mode, Sync]),
    ok.
