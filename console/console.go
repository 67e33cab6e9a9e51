package console

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

//go:embed static
var static embed.FS

// Defaults of Config.
const (
	DefaultIdleTimeout = 30 * time.Minute
	// DefaultMaxLogins bounds the logins held at once: each holds a SQL
	// connection, one of --max-connections.
	DefaultMaxLogins = 32
)

// cookieName is the login cookie's name.
const cookieName = "zproxy_console"

// Config is what the console needs to know.
type Config struct {
	// SQLAddr is the proxy's PostgreSQL listener, host:port, which the
	// console connects to as each logged-in role. An unspecified host
	// (0.0.0.0, ::) is reached on loopback.
	SQLAddr string
	// Database is the database the console's connections open (the
	// store's first database); empty names the role's own, as libpq does.
	Database string
	// RequireTLS refuses console requests over plain HTTP from addresses
	// other than loopback (the listener serves TLS too).
	RequireTLS bool
	// IdleTimeout ends a login unused this long (DefaultIdleTimeout when
	// zero); MaxLogins bounds the logins at once (DefaultMaxLogins).
	IdleTimeout time.Duration
	MaxLogins   int
	Logger      *slog.Logger
}

// Console is the console's HTTP handler and the logins it holds.
type Console struct {
	cfg    Config
	mux    *http.ServeMux
	mu     sync.Mutex
	logins map[string]*login
	closed bool
	now    func() time.Time
}

// login is one logged-in role: its SQL connection, used by one request at
// a time.
type login struct {
	user string
	mu   sync.Mutex
	conn *pgx.Conn
	last time.Time
}

// New builds the console. Mount it at /console/.
func New(cfg Config) *Console {
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.MaxLogins <= 0 {
		cfg.MaxLogins = DefaultMaxLogins
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	c := &Console{cfg: cfg, logins: map[string]*login{}, now: time.Now}
	mux := http.NewServeMux()
	sub, _ := fs.Sub(static, "static")
	files := http.FileServerFS(sub)
	mux.Handle("GET /console/", http.StripPrefix("/console/", files))
	mux.HandleFunc("POST /console/api/login", c.handleLogin)
	mux.HandleFunc("POST /console/api/logout", c.handleLogout)
	for path, h := range c.endpoints() {
		mux.HandleFunc(path, c.authed(h))
	}
	c.mux = mux
	return c
}

// ServeHTTP implements http.Handler.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if c.cfg.RequireTLS && r.TLS == nil && !loopback(r.RemoteAddr) {
		if r.Method == http.MethodGet && !strings.HasPrefix(r.URL.Path, "/console/api/") {
			http.Redirect(w, r, "https://"+r.Host+r.URL.RequestURI(), http.StatusMovedPermanently)
			return
		}
		writeError(w, http.StatusForbidden, "28000", "the console is served over TLS: use https")
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Referrer-Policy", "no-referrer")
	// Everything the pages load is the binary's own.
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'")
	if r.URL.Path == "/console" {
		http.Redirect(w, r, "/console/", http.StatusMovedPermanently)
		return
	}
	c.mux.ServeHTTP(w, r)
}

// Close ends every login, closing its connection.
func (c *Console) Close() {
	c.mu.Lock()
	logins := c.logins
	c.logins, c.closed = map[string]*login{}, true
	c.mu.Unlock()
	for _, l := range logins {
		l.close()
	}
}

func (l *login) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conn != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = l.conn.Close(ctx)
		cancel()
		l.conn = nil
	}
}

type credentials struct {
	User     string `json:"user"`
	Password string `json:"password"`
}

// handleLogin connects to the SQL listener as the role: the connection
// succeeding is the login.
func (c *Console) handleLogin(w http.ResponseWriter, r *http.Request) {
	if !jsonBody(r) {
		writeError(w, http.StatusUnsupportedMediaType, "08P01", "a login is a JSON body")
		return
	}
	var cr credentials
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(&cr); err != nil || cr.User == "" {
		writeError(w, http.StatusBadRequest, "08P01", "a login is {\"user\": ..., \"password\": ...}")
		return
	}
	c.sweep()
	c.mu.Lock()
	full := len(c.logins) >= c.cfg.MaxLogins
	c.mu.Unlock()
	if full {
		writeError(w, http.StatusServiceUnavailable, "53300", "too many console logins; log out elsewhere or wait for one to expire")
		return
	}
	conn, err := c.connect(r.Context(), cr)
	if err != nil {
		status, code, msg := http.StatusBadGateway, "08006", "could not connect to the SQL listener"
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			code, msg = pe.Code, pe.Message
			status = http.StatusServiceUnavailable
			if strings.HasPrefix(pe.Code, "28") {
				status = http.StatusUnauthorized
			}
		}
		c.cfg.Logger.Info("console login refused", "user", cr.User, "sqlstate", code, "remote", r.RemoteAddr)
		writeError(w, status, code, msg)
		return
	}
	token := newToken()
	l := &login{user: cr.User, conn: conn, last: c.now()}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		l.close()
		writeError(w, http.StatusServiceUnavailable, "57P01", "the console is shutting down")
		return
	}
	c.logins[token] = l
	c.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: token, Path: "/console/", HttpOnly: true,
		Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
	c.cfg.Logger.Info("console login", "user", cr.User, "remote", r.RemoteAddr)
	writeJSON(w, map[string]string{"user": cr.User})
}

// connect opens the role's SQL connection to the proxy itself.
func (c *Console) connect(ctx context.Context, cr credentials) (*pgx.Conn, error) {
	host, port, err := net.SplitHostPort(c.cfg.SQLAddr)
	if err != nil {
		return nil, err
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	// The keywords are quoted, so a user name or password may hold any
	// character; sslmode prefer takes TLS when the listener offers it.
	db := c.cfg.Database
	if db == "" {
		db = cr.User
	}
	dsn := "host=" + quoteDSN(host) + " port=" + quoteDSN(port) + " user=" + quoteDSN(cr.User) +
		" password=" + quoteDSN(cr.Password) + " dbname=" + quoteDSN(db) +
		" sslmode=prefer connect_timeout=10 application_name='zproxy console'"
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	return pgx.ConnectConfig(ctx, cfg)
}

func quoteDSN(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func (c *Console) handleLogout(w http.ResponseWriter, r *http.Request) {
	if !jsonBody(r) {
		writeError(w, http.StatusUnsupportedMediaType, "08P01", "a logout is a JSON body")
		return
	}
	if ck, err := r.Cookie(cookieName); err == nil {
		c.mu.Lock()
		l := c.logins[ck.Value]
		delete(c.logins, ck.Value)
		c.mu.Unlock()
		if l != nil {
			l.close()
		}
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/console/", MaxAge: -1, HttpOnly: true,
		Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
	writeJSON(w, map[string]bool{"ok": true})
}

// sweep ends the logins idle past IdleTimeout.
func (c *Console) sweep() {
	c.mu.Lock()
	var old []*login
	for t, l := range c.logins {
		l.mu.Lock()
		idle := c.now().Sub(l.last) > c.cfg.IdleTimeout
		l.mu.Unlock()
		if idle {
			old = append(old, l)
			delete(c.logins, t)
		}
	}
	c.mu.Unlock()
	for _, l := range old {
		l.close()
	}
}

// endpoint answers one API request on the login's connection.
type endpoint func(ctx context.Context, conn *pgx.Conn, r *http.Request) (any, error)

// authed runs h for a logged-in request (401 otherwise), holding the
// login's connection for the request.
func (c *Console) authed(h endpoint) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && !jsonBody(r) {
			writeError(w, http.StatusUnsupportedMediaType, "08P01", "requests that change anything are JSON bodies")
			return
		}
		c.sweep()
		ck, err := r.Cookie(cookieName)
		var l *login
		if err == nil {
			c.mu.Lock()
			l = c.logins[ck.Value]
			c.mu.Unlock()
		}
		if l == nil {
			w.Header().Set("WWW-Authenticate", `Cookie realm="zproxy console"`)
			writeError(w, http.StatusUnauthorized, "28000", "log in first")
			return
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.conn == nil || l.conn.IsClosed() {
			writeError(w, http.StatusUnauthorized, "08003", "the login's connection has closed; log in again")
			return
		}
		l.last = c.now()
		ctx, cancel := context.WithTimeout(r.Context(), 60*time.Second)
		defer cancel()
		out, err := h(ctx, l.conn, r)
		if err != nil {
			var pe *pgconn.PgError
			if errors.As(err, &pe) {
				writeError(w, http.StatusUnprocessableEntity, pe.Code, pe.Message)
				return
			}
			var be badRequest
			if errors.As(err, &be) {
				writeError(w, http.StatusBadRequest, "22023", be.Error())
				return
			}
			writeError(w, http.StatusBadGateway, "08006", err.Error())
			return
		}
		writeJSON(w, out)
	}
}

// badRequest is an error in the request itself (400).
type badRequest string

func (b badRequest) Error() string { return string(b) }

func jsonBody(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mt == "application/json"
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers with an error as PostgreSQL would name it.
func writeError(w http.ResponseWriter, status int, sqlstate, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg, "sqlstate": sqlstate})
}

func newToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails (Go 1.24+)
	return base64.RawURLEncoding.EncodeToString(b)
}

// loopback reports whether a remote address is this machine.
func loopback(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
