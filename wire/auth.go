package wire

import (
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/zproxy/zproxy/internal/auth"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// authenticate authenticates the connecting role by the server's method
// and returns it. Whatever the method, a role that exists without LOGIN is
// refused once authenticated, as in PostgreSQL.
func (c *conn) authenticate() (Role, error) {
	role, err := c.lookupRole()
	if err != nil {
		pe := toPgError(err)
		if pe.Code == pgerr.InternalError {
			c.log.Error("looking up a role", "err", err)
		}
		return Role{}, c.fatalError(pe)
	}
	if c.srv.cfg.Auth == AuthSCRAM {
		if err := c.scram(role); err != nil {
			return Role{}, err
		}
	}
	if role.Exists && !role.Login {
		return Role{}, c.fatal(pgerr.InvalidAuthorizationSpecification, "role \"%s\" is not permitted to log in", c.user)
	}
	return role, nil
}

// scram runs a SCRAM-SHA-256 exchange (SCRAM-SHA-256-PLUS over TLS when the
// certificate allows channel binding). A role that does not exist or has
// no password goes through the whole exchange with a mock verifier and
// fails at its end, so that a client cannot tell it from a wrong password.
func (c *conn) scram(role Role) error {
	failed := func() error {
		return c.fatal(pgerr.InvalidPassword, "password authentication failed for user \"%s\"", c.user)
	}
	var cb []byte
	if c.encrypted {
		cb = c.srv.channelBinding
	}
	mechanisms := auth.Mechanisms(cb)
	c.send(&pgproto3.AuthenticationSASL{AuthMechanisms: mechanisms})
	if err := c.flush(); err != nil {
		return errQuietClose
	}
	var initial pgproto3.SASLInitialResponse
	if err := c.readPasswordMessage(&initial); err != nil {
		return err
	}
	if !slices.Contains(mechanisms, initial.AuthMechanism) {
		return c.fatal(pgerr.ProtocolViolation, "client selected an invalid SASL authentication mechanism")
	}
	v, known := auth.Verifier{}, false
	if role.Exists && role.Verifier != "" {
		var err error
		if v, err = auth.ParseVerifier(role.Verifier); err != nil {
			c.log.Error("a role's stored verifier does not parse", "role", c.user)
		} else {
			known = true
		}
	}
	if !known {
		v.Salt = auth.MockSalt(c.srv.mockKey[:], c.user)
	}
	ex, err := auth.NewExchange(initial.AuthMechanism, v, known, cb)
	if err != nil {
		return c.fatal(pgerr.ProtocolViolation, "client selected an invalid SASL authentication mechanism")
	}
	msg := initial.Data
	for {
		resp, done, err := ex.Step(msg)
		switch {
		case errors.Is(err, auth.ErrMalformed):
			return c.fatal(pgerr.ProtocolViolation, "malformed SCRAM message")
		case err != nil:
			return failed()
		case done:
			c.send(&pgproto3.AuthenticationSASLFinal{Data: resp})
			return nil
		}
		c.send(&pgproto3.AuthenticationSASLContinue{Data: resp})
		if err := c.flush(); err != nil {
			return errQuietClose
		}
		var next pgproto3.SASLResponse
		if err := c.readPasswordMessage(&next); err != nil {
			return err
		}
		msg = next.Data
	}
}

// readPasswordMessage reads the client's next 'p' message (its length
// bounded by maxAuthMessage) into m.
func (c *conn) readPasswordMessage(m interface{ Decode([]byte) error }) error {
	t, body, err := c.rd.next()
	if err != nil {
		var tooBig *messageTooLargeError
		var framing *framingError
		switch {
		case errors.As(err, &tooBig):
			return c.fatal(pgerr.ProtocolViolation, "%s", tooBig.Error())
		case errors.As(err, &framing):
			return c.fatalError(framing.err)
		}
		// psql hangs up here to ask its user for the password.
		return fmt.Errorf("%w: reading the password: %v", errQuietClose, err)
	}
	if t != 'p' {
		return c.fatal(pgerr.ProtocolViolation, "expected SASL response, got message type %d", t)
	}
	if !decodes(m, body) {
		return c.fatal(pgerr.ProtocolViolation, "malformed SASL message")
	}
	return nil
}
