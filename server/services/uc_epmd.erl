%% Where each node of the project's ejabberd cluster listens, without epmd (server/services/ejabberd.ts
%% compiles this on every start and names it with -epmd_module in vm.args, cluster only).
%%
%% Without epmd a node's distribution port is fixed by -erl_epmd_port (ejabberdctl.cfg's
%% ERL_DIST_PORT), and OTP's erl_epmd then assumes every other node listens on that same port: one
%% node per address. Two nodes on one loopback address need a port each, so this module answers
%% port_please from the table in vm.args (`-uc_dist_port Name Port`, one per node) and leaves
%% everything else, the node's own listening port included, to erl_epmd.
-module(uc_epmd).
-export([start_link/0, register_node/2, register_node/3, port_please/2, port_please/3,
         listen_port_please/2, address_please/3, names/0, names/1]).

start_link() -> erl_epmd:start_link().

register_node(Name, Port) -> erl_epmd:register_node(Name, Port).

register_node(Name, Port, Family) -> erl_epmd:register_node(Name, Port, Family).

listen_port_please(Name, Host) -> erl_epmd:listen_port_please(Name, Host).

address_please(Name, Host, Family) -> erl_epmd:address_please(Name, Host, Family).

names() -> erl_epmd:names().

names(Host) -> erl_epmd:names(Host).

port_please(Name, Host) -> port_please(Name, Host, infinity).

%% 6: the distribution protocol version of OTP 23 and later (the nodes are the same OTP).
port_please(Name, Host, Timeout) ->
    case lists:keyfind(to_list(Name), 1, table()) of
        {_, Port} -> {port, Port, 6};
        false -> erl_epmd:port_please(Name, Host, Timeout)
    end.

table() ->
    case init:get_argument(uc_dist_port) of
        {ok, Entries} -> [{N, list_to_integer(P)} || [N, P] <- Entries];
        error -> []
    end.

to_list(Name) when is_atom(Name) -> atom_to_list(Name);
to_list(Name) -> Name.
