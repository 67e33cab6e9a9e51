package wire

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/zproxy/zproxy/internal/pgenc"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// Request codes of the startup packets that are not a StartupMessage.
const (
	sslRequestCode    = 80877103
	gssEncRequestCode = 80877104
	cancelRequestCode = 80877102
)

// readStartupPacket reads one length-prefixed startup packet and returns
// its request code and the bytes after it.
func (c *conn) readStartupPacket() (uint32, []byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(c.rd.r, hdr[:]); err != nil {
		return 0, nil, errQuietClose
	}
	n := int(int32(binary.BigEndian.Uint32(hdr[:])))
	if n < 8 || n > maxStartupPacket {
		return 0, nil, c.fatal(pgerr.ProtocolViolation, "invalid length of startup packet")
	}
	body := make([]byte, n-4)
	if _, err := io.ReadFull(c.rd.r, body); err != nil {
		return 0, nil, errQuietClose
	}
	return binary.BigEndian.Uint32(body[:4]), body[4:], nil
}

// negotiate reads startup packets until the one that is not a request for
// encryption: an SSLRequest is answered 'S' and TLS begins when the server
// has a certificate, 'N' otherwise; a GSSENCRequest is always declined.
func (c *conn) negotiate() (uint32, []byte, error) {
	for requests := 0; ; requests++ {
		code, body, err := c.readStartupPacket()
		if err != nil {
			return 0, nil, err
		}
		if code != sslRequestCode && code != gssEncRequestCode {
			return code, body, nil
		}
		if requests >= 2 || code == sslRequestCode && c.encrypted {
			return 0, nil, c.fatal(pgerr.ProtocolViolation, "too many encryption requests")
		}
		if code == gssEncRequestCode || c.srv.cfg.TLS == nil {
			if _, err := c.nc.Write([]byte{'N'}); err != nil {
				return 0, nil, errQuietClose
			}
			continue
		}
		// Bytes sent after the SSLRequest, before the handshake, would be
		// taken as coming from inside TLS (CVE-2021-23214).
		if c.rd.r.Buffered() > 0 {
			return 0, nil, c.fatal(pgerr.ProtocolViolation, "received unencrypted data after SSL request")
		}
		if _, err := c.nc.Write([]byte{'S'}); err != nil {
			return 0, nil, errQuietClose
		}
		tc := tls.Server(c.raw, c.srv.cfg.TLS)
		if err := tc.HandshakeContext(c.ctx); err != nil {
			return 0, nil, fmt.Errorf("%w: TLS handshake: %v", errQuietClose, err)
		}
		c.nc, c.encrypted = tc, true
		c.rd = newFrontendReader(tc, maxAuthMessage)
	}
}

// startup negotiates encryption, reads the StartupMessage, authenticates,
// opens the session and sends the first ReadyForQuery.
func (c *conn) startup() error {
	code, body, err := c.negotiate()
	if err != nil {
		return err
	}
	switch {
	case code == cancelRequestCode:
		if len(body) >= 8 {
			c.srv.cancel(binary.BigEndian.Uint32(body), body[4:8])
		}
		return errQuietClose
	case c.srv.cfg.Peers != nil && code == c.srv.cfg.Peers.PeerRequestCode():
		if answer := c.srv.cfg.Peers.ServePeer(body); answer != nil {
			_, _ = c.nc.Write(answer)
		}
		return errQuietClose
	case code>>16 != 3:
		return c.fatal(pgerr.FeatureNotSupported, "unsupported frontend protocol %d.%d: server supports 3.0 to 3.0", code>>16, code&0xffff)
	}

	params, err := parseStartupParameters(body)
	if err != nil {
		return c.fatal(pgerr.ProtocolViolation, "%v", err)
	}
	var unknownOptions []string
	for k := range params {
		if strings.HasPrefix(k, "_pq_.") {
			unknownOptions = append(unknownOptions, k)
			delete(params, k)
		}
	}
	if code&0xffff != 0 || len(unknownOptions) > 0 {
		// A newer minor version or protocol options: tell the client we
		// speak 3.0 without them, as PostgreSQL does.
		c.send(&pgproto3.NegotiateProtocolVersion{NewestMinorProtocol: 0, UnrecognizedOptions: unknownOptions})
	}

	c.user = params["user"]
	delete(params, "user")
	database := params["database"]
	delete(params, "database")
	if database == "" {
		database = c.user
	}
	if c.srv.cfg.TLSRequired && !c.encrypted && !isLoopback(c.raw.RemoteAddr()) {
		host, _, _ := net.SplitHostPort(c.raw.RemoteAddr().String())
		return c.fatalError(pgerr.New(pgerr.InvalidAuthorizationSpecification, "no pg_hba.conf entry for host \"%s\", user \"%s\", database \"%s\", no encryption", host, c.user, database).
			WithHint("zproxy runs with --tls-required: connect with sslmode=require or stronger."))
	}
	if c.user == "" {
		return c.fatal(pgerr.InvalidAuthorizationSpecification, "no PostgreSQL user name specified in startup packet")
	}
	settings, err := startupSettings(params)
	if err != nil {
		return c.fatalError(pgerr.Classify(err))
	}
	if enc, ok := settings["client_encoding"]; ok {
		// Checked before authentication, as PostgreSQL's backend checks
		// the startup options; the session then holds the canonical name.
		e, err := ClientEncoding(enc)
		if err != nil {
			return c.fatalError(err)
		}
		settings["client_encoding"] = e.Name
	}
	role, err := c.authenticate(database)
	if err != nil {
		return err
	}
	superuser := role.Superuser
	if pe := c.srv.admit(c, superuser); pe != nil {
		return c.fatalError(pe)
	}
	// Authenticated: from here on messages may be as large as configured.
	c.rd.max = c.srv.cfg.MaxMessageSize

	var sess Session
	err = c.guard("Engine.NewSession", func() error {
		var err error
		sess, err = c.srv.eng.NewSession(c.ctx, SessionParams{
			User:            c.user,
			Database:        database,
			Authenticated:   true, // authenticate found the role
			Startup:         settings,
			Notice:          c.notice,
			ParameterStatus: c.parameterStatus,
			PID:             c.pid,
			ClientAddr:      tcpAddrPort(c.raw.RemoteAddr()),
			ServerAddr:      tcpAddrPort(c.raw.LocalAddr()),
			Notify:          c.notify,
			NotifyQueue:     c.srv.notifyQueue,
			ServerSettings:  c.srv.settings,
			Backends:        c.srv,
			Registry:        c.reg,
		})
		return err
	})
	if err != nil {
		return c.fatalError(toPgError(err))
	}
	c.sess = sess

	c.send(&pgproto3.AuthenticationOk{})
	setting := func(name, dflt string) string {
		v, ok := dflt, false
		_ = c.guard("Session.Setting", func() error { v, ok = sess.Setting(name); return nil })
		if !ok {
			return dflt
		}
		return v
	}
	// From here on text is in the client's encoding, these messages'
	// included (the session set client_encoding without reporting it).
	c.setClientEncoding(setting("client_encoding", "UTF8"))
	for _, ps := range [][2]string{
		{"server_version", c.srv.cfg.ServerVersion},
		{"server_encoding", "UTF8"},
		{"client_encoding", setting("client_encoding", "UTF8")},
		{"DateStyle", setting("DateStyle", "ISO, MDY")},
		{"integer_datetimes", "on"},
		{"standard_conforming_strings", setting("standard_conforming_strings", "on")},
		{"TimeZone", setting("TimeZone", "UTC")},
		{"IntervalStyle", setting("IntervalStyle", "postgres")},
		{"is_superuser", onOff(superuser)},
		{"session_authorization", c.user},
		{"application_name", setting("application_name", settings["application_name"])},
	} {
		c.send(&pgproto3.ParameterStatus{Name: ps[0], Value: ps[1]})
	}
	c.send(&pgproto3.BackendKeyData{ProcessID: c.pid, SecretKey: c.secret[:]})

	c.mu.Lock()
	closing := c.srv.isClosing()
	if !closing {
		_ = c.raw.SetDeadline(time.Time{})
		c.state = stateBusy
	}
	c.mu.Unlock()
	if closing {
		return c.fatalError(errAdminShutdown())
	}
	return c.sendReady()
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// isLoopback reports whether addr is a loopback address (or a Unix socket,
// which never leaves the machine either).
func isLoopback(addr net.Addr) bool {
	switch a := addr.(type) {
	case *net.TCPAddr:
		return a.IP.IsLoopback()
	case *net.UnixAddr:
		return true
	}
	return false
}

// ClientEncoding is the encoding a client_encoding value names, as
// PostgreSQL's check_client_encoding reads it: a name PostgreSQL does not
// know (or 'auto', which only libpq resolves) is 22023; one zproxy cannot
// convert is 0A000, worded as PostgreSQL words the encodings it cannot
// convert to the database's.
func ClientEncoding(value string) (*pgenc.Encoding, *pgerr.Error) {
	e, ok := pgenc.Lookup(value)
	if !ok {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"client_encoding\": \"%s\"", value)
	}
	if !e.Convertible() {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "invalid value for parameter \"client_encoding\": \"%s\"", value).
			WithDetail("Conversion between %s and UTF8 is not supported.", e.Name)
	}
	return e, nil
}

// parseStartupParameters decodes the name/value pairs of a StartupMessage.
func parseStartupParameters(b []byte) (map[string]string, error) {
	params := map[string]string{}
	for {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			return nil, errors.New("invalid startup packet layout: expected terminator as last byte")
		}
		if i == 0 {
			if len(b) != 1 {
				return nil, errors.New("invalid startup packet layout: data after the terminator")
			}
			return params, nil
		}
		name := string(b[:i])
		b = b[i+1:]
		j := bytes.IndexByte(b, 0)
		if j < 0 {
			return nil, errors.New("invalid startup packet layout: expected terminator as last byte")
		}
		params[name] = string(b[:j])
		b = b[j+1:]
	}
}

// startupSettings returns the run-time parameters a StartupMessage sets:
// those of its "options" first, then its other parameters, which win, as in
// PostgreSQL. "replication" is not a setting; zproxy has no replication
// protocol.
func startupSettings(params map[string]string) (map[string]string, error) {
	settings := map[string]string{}
	if opts, ok := params["options"]; ok {
		delete(params, "options")
		if err := parseOptions(opts, settings); err != nil {
			return nil, err
		}
	}
	if v, ok := params["replication"]; ok {
		delete(params, "replication")
		if !strings.EqualFold(v, "false") && !strings.EqualFold(v, "off") && v != "0" && !strings.EqualFold(v, "no") {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "zproxy does not support replication connections")
		}
	}
	for k, v := range params {
		settings[k] = v
	}
	return settings, nil
}

// parseOptions reads the command-line switches of the startup "options"
// parameter into settings. Like PostgreSQL's pg_split_opts, words are
// separated by white space and a backslash makes the next character
// literal ("\ " a space, "\\" a backslash). "-c name=value", "-cname=value"
// and "--name=value" set a parameter, with '-' in the name read as '_';
// PostgreSQL's other server switches do not apply to zproxy and are refused
// as PostgreSQL refuses switches it does not know.
func parseOptions(opts string, settings map[string]string) error {
	words := splitOptions(opts)
	for i := 0; i < len(words); i++ {
		w := words[i]
		var setting string
		switch {
		case w == "-c":
			if i+1 >= len(words) {
				return pgerr.New(pgerr.SyntaxError, "option requires an argument -- 'c'")
			}
			i++
			setting = words[i]
		case strings.HasPrefix(w, "-c"):
			setting = w[2:]
		case strings.HasPrefix(w, "--") && len(w) > 2:
			setting = w[2:]
		default:
			return pgerr.New(pgerr.SyntaxError, "invalid command-line argument for server process: %s", w).
				WithHint("Try \"postgres --help\" for more information.")
		}
		name, value, ok := strings.Cut(setting, "=")
		if !ok {
			if strings.HasPrefix(w, "--") {
				return pgerr.New(pgerr.SyntaxError, "--%s requires a value", setting)
			}
			return pgerr.New(pgerr.SyntaxError, "-c %s requires a value", setting)
		}
		settings[strings.ReplaceAll(name, "-", "_")] = value
	}
	return nil
}

// splitOptions splits the options string the way pg_split_opts does.
func splitOptions(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case ch == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// lookupRole asks the engine about the connecting role.
func (c *conn) lookupRole() (Role, error) {
	var role Role
	err := c.guard("Engine.LookupRole", func() error {
		ctx, cancel := context.WithTimeout(c.ctx, c.srv.cfg.AuthTimeout)
		defer cancel()
		var err error
		role, err = c.srv.eng.LookupRole(ctx, c.user)
		return err
	})
	return role, err
}

// tcpAddrPort is a TCP connection end's address and port; zero for any
// other kind of socket (a Unix socket has none).
func tcpAddrPort(a net.Addr) netip.AddrPort {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.AddrPort()
	}
	return netip.AddrPort{}
}
