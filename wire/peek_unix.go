//go:build unix

package wire

import (
	"errors"
	"net"
	"os"
	"syscall"
)

// canPeek reports whether clientHungUp can look at nc's socket.
func canPeek(nc net.Conn) bool {
	_, ok := nc.(syscall.Conn)
	return ok
}

// clientHungUp reports whether the peer of nc has closed the connection or
// reset it, by peeking at the socket without blocking: bytes a client has
// pipelined stay in the socket for the next read, and a client that is
// merely quiet is still there.
func clientHungUp(nc net.Conn) bool {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return true // closed
	}
	gone := false
	err = rc.Read(func(fd uintptr) bool {
		var b [1]byte
		n, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		switch {
		case err == nil:
			gone = n == 0 // an orderly shutdown reads as end of file
		case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
			errors.Is(err, syscall.ENOTCONN), errors.Is(err, syscall.ETIMEDOUT), errors.Is(err, syscall.EBADF):
			gone = true // reset, timed out by TCP, or the socket is broken
		default:
			// EAGAIN (nothing to read: a quiet client), EINTR, or an error
			// that says nothing of the peer (ENOMEM, ENOBUFS under memory
			// pressure): the next check looks again. A statement must not
			// lose its client to a check that could not tell.
		}
		return true // never wait for readability
	})
	// A read deadline (set to wake an idle reader) is not a hang-up; a
	// closed connection is.
	return gone || err != nil && !errors.Is(err, os.ErrDeadlineExceeded)
}
