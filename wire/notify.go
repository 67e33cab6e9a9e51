package wire

import (
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// Notifications (LISTEN/NOTIFY) reach a connection from other sessions'
// goroutines through notify, which only queues them; the connection's own
// goroutine sends them, as PostgreSQL does, just before a ReadyForQuery
// that finds the session outside a transaction block, or at once while it
// waits idle outside one. An idle connection is blocked reading its
// client, so notify wakes it with a read deadline, and the wait
// (awaitMessage) only peeks, so a wake-up never loses a byte of a message
// arriving at the same moment.
//
// What waits for a listener is bounded, all listeners together, by the
// server's NotifyQueue, PostgreSQL's NOTIFY queue scaled down: a
// notification holds its place from the NOTIFY until every listener it
// went to has been sent it (or has gone), and a NOTIFY that finds the
// queue full fails with 54000. A listener that does not read its socket
// thus blocks its own connection in a write and fills the queue, as in
// PostgreSQL, but cannot grow the process's memory past the bound.

// DefaultNotifyQueueSize is Config.NotifyQueueSize's default.
// PostgreSQL's queue holds 8 GB on disk; zproxy's lives on the Go heap, so
// it is much smaller: what is live there costs up to 1+GOGC/100 times its
// size in memory (five times at cmd/zproxy's --gc-percent 400), and a
// 64 MiB queue filled by a flood of 8 kB NOTIFYs grew the process by 360
// MiB, 16 MiB by about 100 MiB. 16 MiB still holds 2,000 notifications of
// PostgreSQL's largest payload, or some 150,000 short ones, for a listener
// that has stopped reading.
const DefaultNotifyQueueSize = 16 << 20

// notificationOverhead is what a notification costs beyond its channel and
// payload, for each listener it waits for: its message and its place in
// the listener's queue.
const notificationOverhead = 64

// notifyBatch is how many bytes of notifications a connection encodes
// before writing them out: the rest stay in the queue, where they count,
// while a slow client takes these.
const notifyBatch = 64 << 10

// NotifyQueue bounds the memory of the notifications waiting for their
// listeners. Its methods are safe for concurrent use; a nil *NotifyQueue
// bounds nothing.
type NotifyQueue struct {
	limit int64
	used  atomic.Int64
	// lastWarning is when FillWarning last said yes (Unix nanoseconds).
	lastWarning atomic.Int64
}

// fillWarningInterval is PostgreSQL's QUEUE_FULL_WARN_INTERVAL: the
// warning that the queue is half full comes at most this often.
const fillWarningInterval = 5 * time.Second

// FillWarning returns PostgreSQL's WARNING for a NOTIFY that finds the
// queue more than half full, at most once every five seconds for the
// whole queue, as PostgreSQL's asyncQueueFillWarning; nil otherwise.
func (q *NotifyQueue) FillWarning() *pgerr.Error {
	usage := q.Usage()
	if usage <= 0.5 {
		return nil
	}
	now := time.Now().UnixNano()
	last := q.lastWarning.Load()
	if last != 0 && now-last < int64(fillWarningInterval) || !q.lastWarning.CompareAndSwap(last, now) {
		return nil
	}
	// PostgreSQL adds the PID of the listener furthest behind when it
	// has one to name; zproxy does not track which listener that is.
	return &pgerr.Error{Code: pgerr.Warning, Severity: "WARNING", Message: fmt.Sprintf("NOTIFY queue is %.0f%% full", usage*100)}
}

// NewNotifyQueue returns a queue holding at most limit bytes.
func NewNotifyQueue(limit int64) *NotifyQueue {
	return &NotifyQueue{limit: limit}
}

// Notification is one NOTIFY on its way to its listeners. It holds its
// place in the queue that made it until Done has been called once for
// each listener.
type Notification struct {
	PID              uint32
	Channel, Payload string

	q     *NotifyQueue
	size  int64
	left  atomic.Int32 // listeners not yet Done
	freed atomic.Bool
}

// errNotifyQueueFull is PostgreSQL's error for a NOTIFY that does not fit.
func errNotifyQueueFull() *pgerr.Error {
	return pgerr.New(pgerr.ProgramLimitExceeded, "too many notifications in the NOTIFY queue")
}

// NewNotification takes room in the queue for a notification to the given
// number of listeners (at least one), or fails with 54000 when the queue
// cannot hold it. The channel and payload count once, since the listeners
// share them.
func (q *NotifyQueue) NewNotification(pid uint32, channel, payload string, listeners int) (*Notification, error) {
	n := &Notification{PID: pid, Channel: channel, Payload: payload, q: q,
		size: int64(len(channel)+len(payload)) + int64(listeners)*notificationOverhead}
	n.left.Store(int32(listeners))
	if q == nil {
		return n, nil
	}
	for {
		used := q.used.Load()
		if used+n.size > q.limit {
			return nil, errNotifyQueueFull()
		}
		if q.used.CompareAndSwap(used, used+n.size) {
			return n, nil
		}
	}
}

// Done says one listener has been sent the notification, or will never be
// (it went away, or the NOTIFY's transaction did not commit). The last
// Done gives its room back.
func (n *Notification) Done() {
	if n.left.Add(-1) <= 0 && n.q != nil && n.freed.CompareAndSwap(false, true) {
		n.q.used.Add(-n.size)
	}
}

// Usage is the fraction of the queue in use, pg_notification_queue_usage.
func (q *NotifyQueue) Usage() float64 {
	if q == nil || q.limit <= 0 {
		return 0
	}
	return float64(q.used.Load()) / float64(q.limit)
}

// Used is the bytes the waiting notifications take.
func (q *NotifyQueue) Used() int64 {
	if q == nil {
		return 0
	}
	return q.used.Load()
}

// notify queues a notification for the client; any goroutine may call it.
// A connection that has ended drops it at once.
func (c *conn) notify(n *Notification) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		n.Done()
		return
	}
	c.notifications = append(c.notifications, n)
	if c.idleWaiting && c.idleStatus == 'I' && !c.notifyWake {
		c.notifyWake = true
		_ = c.raw.SetReadDeadline(time.Now())
	}
}

// dropNotifications gives back the room of the notifications the client
// will not be sent, when the connection ends.
func (c *conn) dropNotifications() {
	c.mu.Lock()
	ns := c.notifications
	c.notifications, c.ended = nil, true
	c.mu.Unlock()
	for _, n := range ns {
		n.Done()
	}
}

// sendNotifications sends the notifications waiting for the client. It
// writes them out a batch at a time, so that a client slow to read them
// leaves them in the queue, where they count, rather than in the send
// buffer; the last batch is left for the caller's flush.
func (c *conn) sendNotifications() error {
	for {
		c.mu.Lock()
		k, size := 0, 0
		for k < len(c.notifications) && size < notifyBatch {
			size += len(c.notifications[k].Channel) + len(c.notifications[k].Payload)
			k++
		}
		batch := make([]*Notification, k)
		copy(batch, c.notifications)
		// Cleared so that the slice's array does not keep them alive.
		clear(c.notifications[:k])
		c.notifications = c.notifications[k:]
		if len(c.notifications) == 0 {
			c.notifications = nil
		}
		more := c.notifications != nil
		c.mu.Unlock()
		for _, n := range batch {
			c.send(&pgproto3.NotificationResponse{PID: n.PID, Channel: n.Channel, Payload: n.Payload})
		}
		var err error
		if more {
			err = c.flush()
		}
		for _, n := range batch {
			n.Done()
		}
		if !more || err != nil {
			return err
		}
	}
}

// awaitMessage waits until the client's next message starts arriving,
// delivering notifications while the session is idle outside a transaction
// block. A failed wait returns the read error for receiveFailed.
func (c *conn) awaitMessage() error {
	for {
		c.mu.Lock()
		idleOutside := c.state == stateIdle && c.idleStatus == 'I'
		c.idleWaiting = idleOutside
		pending := idleOutside && len(c.notifications) > 0
		c.mu.Unlock()
		if pending {
			if err := c.sendNotifications(); err != nil {
				return err
			}
			if err := c.flush(); err != nil {
				return err
			}
		}
		_, err := c.rd.r.Peek(1)
		c.mu.Lock()
		woken := c.notifyWake
		c.idleWaiting, c.notifyWake = false, false
		if woken {
			_ = c.raw.SetReadDeadline(time.Time{})
		}
		c.mu.Unlock()
		if err != nil && woken && errors.Is(err, os.ErrDeadlineExceeded) && !c.srv.isClosing() {
			continue // woken to send notifications
		}
		return err
	}
}
