package wire

import (
	"errors"
	"os"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// Notifications (LISTEN/NOTIFY) reach a connection from other sessions'
// goroutines through notify, which only queues them; the connection's own
// goroutine sends them, as PostgreSQL does, just before a ReadyForQuery
// that finds the session outside a transaction block, or at once while it
// waits idle outside one. An idle connection is blocked reading its
// client, so notify wakes it with a read deadline, and the wait
// (awaitMessage) only peeks, so a wake-up never loses a byte of a message
// arriving at the same moment.

// notify queues a notification for the client; any goroutine may call it.
func (c *conn) notify(pid uint32, channel, payload string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.notifications = append(c.notifications, &pgproto3.NotificationResponse{PID: pid, Channel: channel, Payload: payload})
	if c.idleWaiting && c.idleStatus == 'I' && !c.notifyWake {
		c.notifyWake = true
		_ = c.raw.SetReadDeadline(time.Now())
	}
}

// sendNotifications queues the notifications waiting for the client.
func (c *conn) sendNotifications() {
	c.mu.Lock()
	ns := c.notifications
	c.notifications = nil
	c.mu.Unlock()
	for _, n := range ns {
		c.send(n)
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
			c.sendNotifications()
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
