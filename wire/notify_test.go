package wire

import (
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestNotifyQueueAccounting: a notification holds its room until each
// listener is Done with it, and one that does not fit is refused with
// 54000.
func TestNotifyQueueAccounting(t *testing.T) {
	q := NewNotifyQueue(1000)
	a, err := q.NewNotification(1, "ch", strings.Repeat("x", 200), 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(202 + 2*notificationOverhead); q.Used() != want {
		t.Errorf("used %d, want %d", q.Used(), want)
	}
	if _, err := q.NewNotification(1, "ch", strings.Repeat("x", 700), 1); err == nil || err.(*pgerr.Error).Code != pgerr.ProgramLimitExceeded ||
		err.Error() != "too many notifications in the NOTIFY queue" {
		t.Errorf("overflowing NOTIFY: %v", err)
	}
	if w := q.FillWarning(); w != nil {
		t.Errorf("warning below half full: %v", w)
	}
	b, err := q.NewNotification(1, "ch", strings.Repeat("x", 200), 1)
	if err != nil {
		t.Fatal(err)
	}
	if w := q.FillWarning(); w == nil || w.Message != "NOTIFY queue is 60% full" || w.Code != pgerr.Warning || w.Severity != "WARNING" {
		t.Errorf("warning past half full: %v", w)
	}
	if w := q.FillWarning(); w != nil {
		t.Errorf("a second warning within five seconds: %v", w)
	}
	b.Done()
	a.Done()
	if q.Used() == 0 {
		t.Error("room given back before the second listener")
	}
	a.Done()
	a.Done() // a stray Done gives nothing back twice
	if q.Used() != 0 || q.Usage() != 0 {
		t.Errorf("used %d after both listeners", q.Used())
	}
	var none *NotifyQueue
	if _, err := none.NewNotification(1, "ch", "p", 1); err != nil || none.Usage() != 0 {
		t.Errorf("nil queue: %v", err)
	}
}

// TestNotifyNonReadingListener: a listener that does not read blocks its
// connection in a write; the notifications for it wait in the queue, which
// fills (54000) instead of growing; once the client reads, every
// notification arrives in order and the room comes back. A listener that
// hangs up gives its room back too.
func TestNotifyNonReadingListener(t *testing.T) {
	const limit = 1 << 20
	ts := startServer(t, Config{NotifyQueueSize: limit})
	for _, hangUp := range []bool{false, true} {
		l := connectRaw(t, ts.addr)
		ts.eng.mu.Lock()
		p := ts.eng.params[len(ts.eng.params)-1]
		ts.eng.mu.Unlock()
		q := p.NotifyQueue
		if q != ts.srv.notifyQueue {
			t.Fatal("the session's queue is not the server's")
		}
		payload := strings.Repeat("p", 8000)
		sent := 0
		// The kernel's socket buffers take a few megabytes first.
		for ; sent < 20000; sent++ {
			n, err := q.NewNotification(7, "ch", payload, 1)
			if err != nil {
				break
			}
			p.Notify(n)
		}
		if sent == 20000 {
			t.Fatalf("%d notifications of 8000 bytes did not fill a 1 MiB queue", sent)
		}
		if q.Used() > limit {
			t.Errorf("queue holds %d bytes, past %d", q.Used(), limit)
		}
		if hangUp {
			l.nc.Close()
		} else {
			for i := range sent {
				s, msg := l.recv()
				n, ok := msg.(*pgproto3.NotificationResponse)
				if !ok || n.PID != 7 || n.Payload != payload {
					t.Fatalf("notification %d of %d: %s", i, sent, s)
				}
			}
		}
		waitFor(t, "the queue to empty", func() bool { return q.Used() == 0 })
	}
}
