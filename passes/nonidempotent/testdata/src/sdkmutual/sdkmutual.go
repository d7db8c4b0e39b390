// Package sdkmutual has two option interfaces whose implementations
// apply each other: an Option may apply a Setting, whose one
// implementation applies an Option, and another Option sets the key.
// Judged from Option (withSetting before withStoredKey), Setting is first
// assumed to add nothing; once Option is found to set the key, Setting
// does too, through it, and neither call's POST is reported.
package sdkmutual

import (
	"context"
	"net/http"
)

type Config struct {
	Request *http.Request
	hc      *http.Client
}

type Option interface{ Apply(*Config) }

type Setting interface{ Set(*Config) }

type withSetting struct{ s Setting }

func (o withSetting) Apply(c *Config) { o.s.Set(c) }

type withStoredKey struct{ key string }

func (o withStoredKey) Apply(c *Config) { c.Request.Header.Set("Idempotency-Key", o.key) }

type viaOption struct{ o Option }

func (s viaOption) Set(c *Config) { s.o.Apply(c) }

func (c *Config) execute() error { // want execute:`idemKey\(recvRetries\)`
	var err error
	for i := 0; i < 3; i++ {
		var res *http.Response
		res, err = c.hc.Do(c.Request.Clone(c.Request.Context()))
		if err == nil {
			return res.Body.Close()
		}
	}
	return err
}

// Create applies options, one of which may carry the key.
func Create(ctx context.Context, hc *http.Client, opts ...Option) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "/v1/things", nil)
	if err != nil {
		return err
	}
	c := &Config{Request: req, hc: hc}
	for _, o := range opts {
		o.Apply(c)
	}
	return c.execute()
}

// Update applies a setting, which may apply such an option.
func Update(ctx context.Context, hc *http.Client, s Setting) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "/v1/things/1", nil)
	if err != nil {
		return err
	}
	c := &Config{Request: req, hc: hc}
	s.Set(c)
	return c.execute()
}
