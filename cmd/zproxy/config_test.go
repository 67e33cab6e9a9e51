package main

import (
	"bytes"
	"context"
	"flag"
	"io/fs"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestLoadConfigPrecedence(t *testing.T) {
	defaults := defaultConfig()
	with := func(edit func(*Config)) Config {
		c := defaultConfig()
		edit(&c)
		return c
	}
	tests := []struct {
		name  string
		args  []string
		env   map[string]string
		files map[string]string
		want  Config
	}{
		{name: "defaults", want: defaults},
		{
			name: "flag only",
			args: []string{"--listen", "127.0.0.1:1", "--data-dir=/d", "--allow-full-scan=false"},
			want: with(func(c *Config) { c.Listen, c.DataDir, c.AllowFullScan = "127.0.0.1:1", "/d", false }),
		},
		{
			name: "env only",
			env:  map[string]string{"ZPROXY_LISTEN": "127.0.0.1:2", "ZPROXY_DYNAMODB_TABLE": "t", "ZPROXY_ALLOW_FULL_SCAN": "0"},
			want: with(func(c *Config) { c.Listen, c.DynamoDBTable, c.AllowFullScan = "127.0.0.1:2", "t", false }),
		},
		{
			name:  "file only, key = value",
			args:  []string{"--config", "z.conf"},
			files: map[string]string{"z.conf": "# comment\n\nlisten = 127.0.0.1:3\ndata_dir = \"/with space\"\nmax-message-size = 2MiB\ncache_size = 1GiB\n"},
			want: with(func(c *Config) {
				c.Listen, c.DataDir, c.MaxMessageSize, c.CacheSize, c.ConfigFile = "127.0.0.1:3", "/with space", 2<<20, 1<<30, "z.conf"
			}),
		},
		{
			name:  "file only, JSON",
			args:  []string{"--config=z.json"},
			files: map[string]string{"z.json": `{"listen": "127.0.0.1:4", "allow_full_scan": false, "max-message-size": 65536, "shutdown-timeout": "5s"}`},
			want: with(func(c *Config) {
				c.Listen, c.AllowFullScan, c.MaxMessageSize, c.ShutdownTimeout, c.ConfigFile = "127.0.0.1:4", false, 65536, 5*time.Second, "z.json"
			}),
		},
		{
			name:  "env beats file",
			args:  []string{"--config", "z.conf"},
			env:   map[string]string{"ZPROXY_LISTEN": "127.0.0.1:5"},
			files: map[string]string{"z.conf": "listen = 127.0.0.1:6\nlog-level = debug\n"},
			want:  with(func(c *Config) { c.Listen, c.LogLevel, c.ConfigFile = "127.0.0.1:5", "debug", "z.conf" }),
		},
		{
			name:  "flag beats env beats file",
			args:  []string{"--config", "z.conf", "--listen", "127.0.0.1:7"},
			env:   map[string]string{"ZPROXY_LISTEN": "127.0.0.1:8", "ZPROXY_DATA_DIR": "/env"},
			files: map[string]string{"z.conf": "listen = 127.0.0.1:9\ndata-dir = /file\nbackend = dynamodb\n"},
			want: with(func(c *Config) {
				c.Listen, c.DataDir, c.Backend, c.ConfigFile = "127.0.0.1:7", "/env", "dynamodb", "z.conf"
			}),
		},
		{
			name:  "config file named by env",
			env:   map[string]string{"ZPROXY_CONFIG": "env.conf"},
			files: map[string]string{"env.conf": "users = a:x"},
			want:  with(func(c *Config) { c.Users, c.ConfigFile = "a:x", "env.conf" }),
		},
		{
			name:  "config flag beats config env",
			args:  []string{"--config", "flag.conf"},
			env:   map[string]string{"ZPROXY_CONFIG": "env.conf"},
			files: map[string]string{"flag.conf": "dynamodb-region = r1", "env.conf": "dynamodb-region = r2"},
			want:  with(func(c *Config) { c.DynamoDBRegion, c.ConfigFile = "r1", "flag.conf" }),
		},
		{
			name:  "flag false beats env and file true",
			args:  []string{"--config", "z.conf", "--allow-full-scan=false"},
			env:   map[string]string{"ZPROXY_ALLOW_FULL_SCAN": "true"},
			files: map[string]string{"z.conf": "allow-full-scan = true"},
			want:  with(func(c *Config) { c.AllowFullScan, c.ConfigFile = false, "z.conf" }),
		},
		{
			name:  "connection admission: flag, env, file",
			args:  []string{"--config", "z.conf", "--authentication-timeout", "5"},
			env:   map[string]string{"ZPROXY_SUPERUSER_RESERVED_CONNECTIONS": "1"},
			files: map[string]string{"z.conf": "authentication_timeout = 1min\nnotify-queue-size = 1MiB\n"},
			want: with(func(c *Config) {
				c.AuthenticationTimeout, c.SuperuserReservedConnections, c.NotifyQueueSize, c.ConfigFile = seconds(5*time.Second), 1, 1<<20, "z.conf"
			}),
		},
		{
			name: "authentication timeout with a unit",
			env:  map[string]string{"ZPROXY_AUTHENTICATION_TIMEOUT": "2min"},
			want: with(func(c *Config) { c.AuthenticationTimeout = seconds(2 * time.Minute) }),
		},
		{
			name: "empty env value is a value",
			env:  map[string]string{"ZPROXY_METRICS_LISTEN": ""},
			want: with(func(c *Config) { c.MetricsListen = "" }),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, rest, err := loadConfig(tt.args, fakeEnv(tt.env), fakeFiles(tt.files))
			if err != nil {
				t.Fatalf("loadConfig: %v", err)
			}
			if len(rest) != 0 {
				t.Errorf("rest = %q, want none", rest)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestLoadConfigErrors(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		files   map[string]string
		wantErr string
	}{
		{name: "unknown flag", args: []string{"--nope"}, wantErr: "not defined"},
		{name: "bad bool env", env: map[string]string{"ZPROXY_ALLOW_FULL_SCAN": "maybe"}, wantErr: "ZPROXY_ALLOW_FULL_SCAN"},
		{name: "missing config file", args: []string{"--config", "absent"}, wantErr: "config file"},
		{name: "unknown file key", args: []string{"--config", "z"}, files: map[string]string{"z": "# x\nlisten_port = 1"}, wantErr: "z:2: unknown setting \"listen-port\""},
		{name: "config names config", args: []string{"--config", "z"}, files: map[string]string{"z": "config = other"}, wantErr: "unknown setting"},
		{name: "line without =", args: []string{"--config", "z"}, files: map[string]string{"z": "listen"}, wantErr: "line 1"},
		{name: "bad JSON", args: []string{"--config", "z"}, files: map[string]string{"z": `{"listen": }`}, wantErr: "JSON"},
		{name: "JSON nested value", args: []string{"--config", "z"}, files: map[string]string{"z": `{"listen": ["a"]}`}, wantErr: "string, number or boolean"},
		{name: "bad file value", args: []string{"--config", "z"}, files: map[string]string{"z": "shutdown-timeout = soon"}, wantErr: "z:1: shutdown-timeout"},
		{name: "bad backend", args: []string{"--backend", "mysql"}, wantErr: "--backend"},
		{name: "trust by default off loopback", args: []string{"--listen", "0.0.0.0:15432"}, wantErr: "not a loopback address"},
		{name: "trust by default on all interfaces", args: []string{"--listen", ":15432"}, wantErr: "not a loopback address"},
		{name: "empty password", args: []string{"--users", "a:"}, wantErr: "empty password"},
		{name: "tls cert without key", args: []string{"--tls-cert", "c.pem"}, wantErr: "go together"},
		{name: "tls required without tls", args: []string{"--tls-required"}, wantErr: "--tls-required needs"},
		{name: "no connections", args: []string{"--max-connections", "0"}, wantErr: "at least 1"},
		{name: "negative reserve", args: []string{"--superuser-reserved-connections", "-1"}, wantErr: "--superuser-reserved-connections"},
		{name: "authentication timeout too long", args: []string{"--authentication-timeout", "601"}, wantErr: "--authentication-timeout"},
		{name: "authentication timeout zero", args: []string{"--authentication-timeout", "0"}, wantErr: "--authentication-timeout"},
		{name: "authentication timeout fraction", args: []string{"--authentication-timeout", "1500ms"}, wantErr: "--authentication-timeout"},
		{name: "authentication timeout garbage", args: []string{"--authentication-timeout", "soon"}, wantErr: "not a time"},
		{name: "tiny notify queue", args: []string{"--notify-queue-size", "1KiB"}, wantErr: "--notify-queue-size"},
		{name: "trust with users", args: []string{"--auth", "trust", "--users", "a:b"}, wantErr: "ignored"},
		{name: "unknown auth", args: []string{"--auth", "md5"}, wantErr: "--auth"},
		{name: "malformed users hides the entry", args: []string{"--users", "a:b,secretpassword"}, wantErr: "entry 2 is not user:password"},
		{name: "duplicate user", args: []string{"--users", "a:b,a:c"}, wantErr: "twice"},
		{name: "bad log level", args: []string{"--log-level", "loud"}, wantErr: "--log-level"},
		{name: "tiny message size", args: []string{"--max-message-size", "100"}, wantErr: "at least"},
		{name: "bad message size", args: []string{"--max-message-size", "12XB"}, wantErr: "not a size"},
		{name: "empty data dir", env: map[string]string{"ZPROXY_DATA_DIR": ""}, wantErr: "--data-dir"},
		{name: "tiny cache", args: []string{"--cache-size", "1KiB"}, wantErr: "--cache-size"},
		{name: "gc percent too small", args: []string{"--gc-percent", "5"}, wantErr: "--gc-percent"},
		{name: "gc percent below -1", args: []string{"--gc-percent", "-2"}, wantErr: "--gc-percent"},
		{name: "pprof without metrics", args: []string{"--pprof", "--metrics-listen="}, wantErr: "--pprof needs --metrics-listen"},
		{name: "console without metrics", args: []string{"--console", "--metrics-listen="}, wantErr: "--console needs --metrics-listen"},
		{name: "console off loopback without TLS", args: []string{"--console", "--metrics-listen", "0.0.0.0:19090"}, wantErr: "needs --tls-cert"},
		{name: "help", args: []string{"--help"}, wantErr: flag.ErrHelp.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := loadConfig(tt.args, fakeEnv(tt.env), fakeFiles(tt.files))
			if err == nil {
				t.Fatalf("loadConfig succeeded, want an error containing %q", tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %q does not contain %q", err, tt.wantErr)
			}
			if strings.Contains(err.Error(), "secretpassword") {
				t.Fatalf("error %q reveals a password", err)
			}
		})
	}
}

func TestCredentialsAndAuthMethod(t *testing.T) {
	tests := []struct {
		users, auth, listen string
		want                map[string]string
		wantAuth            string
	}{
		{users: "", want: map[string]string{}, wantAuth: authTrust},
		{users: "zproxy:pw", want: map[string]string{"zproxy": "pw"}, wantAuth: authPassword},
		{users: " a:x:y , b:: ,", want: map[string]string{"a": "x:y", "b": ":"}, wantAuth: authPassword},
		{users: "a:1", auth: authPassword, want: map[string]string{"a": "1"}, wantAuth: authPassword},
		{users: "", auth: authTrust, want: map[string]string{}, wantAuth: authTrust},
		// Roles may already be in the store: password needs no --users.
		{users: "", auth: authPassword, want: map[string]string{}, wantAuth: authPassword},
		{users: "", auth: authSCRAM, want: map[string]string{}, wantAuth: authPassword},
		{users: "", listen: "[::1]:5432", want: map[string]string{}, wantAuth: authTrust},
		{users: "", listen: "localhost:5432", want: map[string]string{}, wantAuth: authTrust},
		{users: "", listen: "10.0.0.1:5432", auth: authTrust, want: map[string]string{}, wantAuth: authTrust},
		{users: "a:b", listen: "0.0.0.0:5432", want: map[string]string{"a": "b"}, wantAuth: authPassword},
	}
	for _, tt := range tests {
		c := Config{Users: tt.users, Auth: tt.auth, Listen: tt.listen}
		if c.Listen == "" {
			c.Listen = defaultListen
		}
		got, err := c.Credentials()
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Credentials(%q) = %v, %v; want %v", tt.users, got, err, tt.want)
		}
		auth, err := c.AuthMethod()
		if err != nil || auth != tt.wantAuth {
			t.Errorf("AuthMethod(%q, %q, %q) = %q, %v; want %q", tt.users, tt.auth, c.Listen, auth, err, tt.wantAuth)
		}
	}
}

func TestLogAttrsHidePasswords(t *testing.T) {
	c := defaultConfig()
	c.Users = "bob:hunter2,alice:s3cret"
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("starting", c.LogAttrs()...)
	out := buf.String()
	if strings.Contains(out, "hunter2") || strings.Contains(out, "s3cret") {
		t.Fatalf("log line reveals a password: %s", out)
	}
	if !strings.Contains(out, "users=alice,bob") || !strings.Contains(out, "auth=password") {
		t.Fatalf("log line does not describe the users: %s", out)
	}
}

func TestByteSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"4096", 4096, true},
		{"64KiB", 64 << 10, true},
		{"16 MiB", 16 << 20, true},
		{"1GiB", 1 << 30, true},
		{"-1", 0, false},
		{"1.5MiB", 0, false},
		{"MiB", 0, false},
		{"99999999GiB", 0, false},
	}
	for _, tt := range tests {
		var b byteSize
		err := b.Set(tt.in)
		if (err == nil) != tt.ok || (tt.ok && int64(b) != tt.want) {
			t.Errorf("Set(%q) = %d, %v; want %d ok=%v", tt.in, b, err, tt.want, tt.ok)
		}
	}
}

func TestUsageDocumentsEveryFlag(t *testing.T) {
	var buf bytes.Buffer
	printUsage(&buf)
	out := buf.String()
	cfg := defaultConfig()
	newFlagSet(&cfg).VisitAll(func(f *flag.Flag) {
		for _, want := range []string{"--" + f.Name, envName(f.Name)} {
			if !strings.Contains(out, want) {
				t.Errorf("usage does not mention %s", want)
			}
		}
	})
	for _, want := range []string{"15432", "flag > ZPROXY_* environment variable > config file > default"} {
		if !strings.Contains(out, want) {
			t.Errorf("usage does not mention %q", want)
		}
	}
}

func TestRunDispatch(t *testing.T) {
	tests := []struct {
		args       []string
		wantStatus int
		wantStdout string
		wantStderr string
	}{
		{args: []string{"--help"}, wantStatus: 0, wantStdout: "ZPROXY_LISTEN"},
		{args: []string{"help"}, wantStatus: 0, wantStdout: "ZPROXY_LISTEN"},
		{args: []string{"serve", "-h"}, wantStatus: 0, wantStdout: "ZPROXY_LISTEN"},
		{args: []string{"frobnicate"}, wantStatus: 2, wantStderr: `unknown command "frobnicate"`},
		{args: []string{"--backend", "x"}, wantStatus: 2, wantStderr: "--backend"},
		{args: []string{"--listen", "127.0.0.1:0", "extra"}, wantStatus: 2, wantStderr: `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		status := run(context.Background(), tt.args, &stdout, &stderr)
		if status != tt.wantStatus || !strings.Contains(stdout.String(), tt.wantStdout) || !strings.Contains(stderr.String(), tt.wantStderr) {
			t.Errorf("run(%q) = %d, stdout %q, stderr %q; want %d, %q, %q",
				tt.args, status, stdout.String(), stderr.String(), tt.wantStatus, tt.wantStdout, tt.wantStderr)
		}
	}
}

func fakeEnv(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}

func fakeFiles(m map[string]string) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		if s, ok := m[name]; ok {
			return []byte(s), nil
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
}
