package session

import (
	"sync"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/parser"
	"github.com/zproxy/zproxy/wire"
)

// LISTEN, UNLISTEN and NOTIFY between the sessions of one proxy.
//
// The engine keeps, per channel, the sessions listening on it; NOTIFY
// hands each of them the notification through its connection
// (SessionParams.Notify), which sends it as PostgreSQL does: right away
// when the listener is idle outside a transaction block, otherwise just
// before its next ReadyForQuery outside one. As in PostgreSQL, a NOTIFY
// inside a transaction block is sent when the block commits (and dropped
// if it rolls back), identical notifications of one transaction are sent
// once, and LISTEN and UNLISTEN inside a block take effect at its commit.
// Notifications do not cross proxies: two proxies over one DynamoDB table
// each have their own listeners (README says so).

// maxNotifyPayload is PostgreSQL's NOTIFY_PAYLOAD_MAX_LENGTH less one.
const maxNotifyPayload = 7999

// notification is one NOTIFY.
type notification struct {
	channel, payload string
}

// notifyHub holds the listeners of one engine.
type notifyHub struct {
	mu        sync.Mutex
	listeners map[string]map[*Session]bool
}

func (h *notifyHub) set(s *Session, channel string, on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if on {
		if h.listeners == nil {
			h.listeners = map[string]map[*Session]bool{}
		}
		if h.listeners[channel] == nil {
			h.listeners[channel] = map[*Session]bool{}
		}
		h.listeners[channel][s] = true
		return
	}
	delete(h.listeners[channel], s)
	if len(h.listeners[channel]) == 0 {
		delete(h.listeners, channel)
	}
}

// outgoing is a notification that has its room in the NOTIFY queue and
// the listeners it goes to.
type outgoing struct {
	n  *wire.Notification
	to []*Session
}

// reserve takes room in the queue q for notifications from the session
// with that PID to the sessions listening now, all of them or (54000,
// queue full) none, as PostgreSQL's NOTIFY fails whole at its commit.
//
// The notifying session itself gets a notification when it listens on the
// channel once its transaction commits (self, nil when it commits no
// LISTEN or UNLISTEN): as in PostgreSQL, LISTEN foo; NOTIFY foo in one
// transaction notifies the session.
func (h *notifyHub) reserve(q *wire.NotifyQueue, pid uint32, ns []notification, sender *Session, self map[string]bool) ([]outgoing, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []outgoing
	for _, n := range ns {
		var to []*Session
		for s := range h.listeners[n.channel] {
			if s.params.Notify != nil && (self == nil || s != sender) {
				to = append(to, s)
			}
		}
		if self != nil && self[n.channel] && sender.params.Notify != nil {
			to = append(to, sender)
		}
		if len(to) == 0 {
			continue
		}
		wn, err := q.NewNotification(pid, n.channel, n.payload, len(to))
		if err != nil {
			abandon(out)
			return nil, err
		}
		out = append(out, outgoing{wn, to})
	}
	return out, nil
}

// deliver hands reserved notifications to their listeners' connections,
// which give their room back once they have sent them.
func deliver(out []outgoing) {
	for _, o := range out {
		for _, s := range o.to {
			s.params.Notify(o.n)
		}
	}
}

// abandon gives back the room of reserved notifications that will not be
// sent.
func abandon(out []outgoing) {
	for _, o := range out {
		for range o.to {
			o.n.Done()
		}
	}
}

// publish sends notifications from the session with that PID now.
func (s *Session) publish(ns []notification) error {
	s.warnQueueFilling()
	out, err := s.engine.notify.reserve(s.params.NotifyQueue, s.params.PID, ns, s, nil)
	if err != nil {
		return err
	}
	deliver(out)
	return nil
}

// warnQueueFilling sends PostgreSQL's warning when NOTIFYs find the queue
// more than half full; like PostgreSQL it looks before adding them, so a
// NOTIFY that then fails with 54000 may be preceded by it.
func (s *Session) warnQueueFilling() {
	if w := s.params.NotifyQueue.FillWarning(); w != nil {
		s.notice(w)
	}
}

// notifyStatement runs LISTEN, UNLISTEN and NOTIFY.
func (s *Session) notifyStatement(u *parser.UtilityStatement) (wire.Result, error) {
	x := &s.ext
	switch u.Kind {
	case "notify":
		if u.Name == "" {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "channel name cannot be empty")
		}
		if len(u.Payload) > maxNotifyPayload {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "payload string too long")
		}
		n := notification{u.Name, u.Payload}
		if s.txStatus == 'I' {
			if err := s.publish([]notification{n}); err != nil {
				return nil, err
			}
			return tagResult("NOTIFY"), nil
		}
		for _, p := range x.pending {
			if p == n {
				return tagResult("NOTIFY"), nil
			}
		}
		x.pending = append(x.pending, n)
		return tagResult("NOTIFY"), nil
	case "listen":
		s.changeListening(u.Name, true)
		return tagResult("LISTEN"), nil
	}
	if u.All {
		s.changeListening("", false)
	} else {
		s.changeListening(u.Name, false)
	}
	return tagResult("UNLISTEN"), nil
}

// listenChange is a LISTEN or UNLISTEN waiting for its block to commit
// (channel "" with on false: UNLISTEN *).
type listenChange struct {
	channel string
	on      bool
}

// changeListening applies a LISTEN or UNLISTEN now, or at the commit of
// the open transaction block.
func (s *Session) changeListening(channel string, on bool) {
	if s.txStatus != 'I' {
		s.ext.listenChanges = append(s.ext.listenChanges, listenChange{channel, on})
		return
	}
	s.applyListening(listenChange{channel, on})
}

func (s *Session) applyListening(c listenChange) {
	x := &s.ext
	if c.channel == "" {
		for ch := range x.listening {
			s.engine.notify.set(s, ch, false)
		}
		x.listening = nil
		return
	}
	if c.on {
		if x.listening == nil {
			x.listening = map[string]bool{}
		}
		x.listening[c.channel] = true
	} else {
		delete(x.listening, c.channel)
	}
	s.engine.notify.set(s, c.channel, c.on)
}

// unlistenAll is UNLISTEN *, now.
func (s *Session) unlistenAll() {
	s.ext.listenChanges = nil
	s.applyListening(listenChange{})
}

// reserveNotifications takes room in the NOTIFY queue for the block's
// NOTIFYs before it commits, so that COMMIT fails (54000) and the block
// rolls back when they do not fit, as in PostgreSQL.
func (s *Session) reserveNotifications() ([]outgoing, error) {
	if len(s.ext.pending) == 0 {
		return nil, nil
	}
	s.warnQueueFilling()
	return s.engine.notify.reserve(s.params.NotifyQueue, s.params.PID, s.ext.pending, s, s.listeningAfterCommit())
}

// listeningAfterCommit is the channels the session listens on once its
// block's LISTEN and UNLISTEN apply, or nil when it has none.
func (s *Session) listeningAfterCommit() map[string]bool {
	x := &s.ext
	if len(x.listenChanges) == 0 {
		return nil
	}
	after := map[string]bool{}
	for ch := range x.listening {
		after[ch] = true
	}
	for _, c := range x.listenChanges {
		switch {
		case c.channel == "":
			after = map[string]bool{}
		case c.on:
			after[c.channel] = true
		default:
			delete(after, c.channel)
		}
	}
	return after
}

// notifyAtTransactionEnd applies the block's LISTEN and UNLISTEN and sends
// its NOTIFYs, reserved by reserveNotifications, when it commits; a
// rollback drops them.
func (s *Session) notifyAtTransactionEnd(out []outgoing, commit bool) {
	x := &s.ext
	if commit {
		for _, c := range x.listenChanges {
			s.applyListening(c)
		}
		deliver(out)
	} else {
		abandon(out)
	}
	x.listenChanges, x.pending = nil, nil
}

// sessionsByPID finds the session a statement runs in from the PID that
// builtins.Context carries, for pg_notify. Sessions without a connection
// (PID 0) are not in it.
var sessionsByPID sync.Map // uint32 → *Session

func init() {
	// pg_notify(channel, payload) is NOTIFY as a function; it returns
	// void, which prints as an empty text value.
	builtins.Register("pg_notify", builtins.Overload{
		Params:       []builtins.Param{builtins.T(sqltypes.TypeText), builtins.T(sqltypes.TypeText)},
		Result:       builtins.Returns(sqltypes.TypeVoid),
		CalledOnNull: true,
		Volatility:   builtins.Volatile,
		Eval: func(ctx *builtins.Context, a []sqltypes.Value) (sqltypes.Value, error) {
			v, ok := sessionsByPID.Load(uint32(ctx.Session.PID))
			if !ok || ctx.Session.PID == 0 {
				return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "pg_notify needs a client connection")
			}
			u := &parser.UtilityStatement{Kind: "notify", Name: a[0].S, Payload: a[1].S}
			if _, err := v.(*Session).notifyStatement(u); err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewText(""), nil
		},
	})
	// pg_notification_queue_usage() is the fraction of the proxy's NOTIFY
	// queue that notifications waiting for their listeners take.
	builtins.Register("pg_notification_queue_usage", builtins.Overload{
		Result:     builtins.Returns(sqltypes.TypeFloat8),
		Volatility: builtins.Volatile,
		Eval: func(ctx *builtins.Context, _ []sqltypes.Value) (sqltypes.Value, error) {
			var q *wire.NotifyQueue
			if v, ok := sessionsByPID.Load(uint32(ctx.Session.PID)); ok && ctx.Session.PID != 0 {
				q = v.(*Session).params.NotifyQueue
			}
			return sqltypes.NewFloat(q.Usage()), nil
		},
	})
}
