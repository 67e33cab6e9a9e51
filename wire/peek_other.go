//go:build !unix

package wire

import "net"

// canPeek reports whether clientHungUp can look at nc's socket: not on
// this platform, where a statement notices a lost client only when it
// writes to it.
func canPeek(net.Conn) bool { return false }

func clientHungUp(net.Conn) bool { return false }
