// Package fiber is a hand-written stub of github.com/gofiber/fiber/v2 for
// retrylint's tests: the few declarations the tests use, signatures only.
package fiber

import "context"

// Ctx is a request's context in a fiber handler. (The real Ctx also has
// Context, returning the connection's *fasthttp.RequestCtx; the stub
// leaves it out so that it needs no other stub.)
type Ctx struct{}

func (c *Ctx) UserContext() context.Context       { return nil }
func (c *Ctx) SetUserContext(ctx context.Context) {}
func (c *Ctx) Params(key string, defaultValue ...string) string {
	return ""
}
func (c *Ctx) JSON(data any) error          { return nil }
func (c *Ctx) SendString(body string) error { return nil }

// Handler is a fiber handler.
type Handler = func(*Ctx) error

// Router registers routes.
type Router interface {
	Get(path string, handlers ...Handler) Router
	Post(path string, handlers ...Handler) Router
}

// Config configures an App.
type Config struct{}

// App is a fiber application.
type App struct{}

func New(config ...Config) *App                               { return nil }
func (app *App) Get(path string, handlers ...Handler) Router  { return nil }
func (app *App) Post(path string, handlers ...Handler) Router { return nil }
func (app *App) Listen(addr string) error                     { return nil }
