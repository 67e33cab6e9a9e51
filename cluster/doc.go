// Package cluster lets the proxies that share one store know each other, so
// that the database they serve behaves as one PostgreSQL server wherever a
// client's connection lands.
//
// Registry: each proxy joins by claiming a slot (1..MaxSlot) in the store's
// partition C/zproxy-cluster, with a conditional write, and renews the
// claim (a heartbeat) every TTL/3; an entry not renewed for TTL is dead and
// its slot may be taken by a new proxy. The slot is the high bits of the
// process IDs the proxy gives its sessions (PID), so any proxy can tell
// from a process ID alone which proxy owns the session, and a CancelRequest
// or pg_cancel_backend that lands on the wrong proxy is forwarded to the
// right one.
//
// Peer requests: a proxy asks another one over the other's SQL listener,
// with a startup packet of its own request code (PeerRequestCode) that a
// PostgreSQL client never sends. Each request is signed with HMAC-SHA256
// under a secret every proxy reads from the store (created once, by the
// first proxy), names the member it is for (a slot reused by a new proxy
// refuses requests meant for the old one) and carries its time (requests
// older than MaxRequestAge are refused, so a captured one cannot be
// replayed later). TLS is used when the peer offers it.
//
// What a request does on the proxy that receives it is the Handler's: the
// binary wires the wire server's cancel and terminate and the session
// engine's activity into it. The package depends on package kv only.
package cluster
