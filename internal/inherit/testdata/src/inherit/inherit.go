package inherit

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/labstack/echo/v4"
)

func here() {}

func run(f func()) { f() }

func plain(ctx context.Context) {
	here() // want `^ctx \(var ctx context.Context\)$`
}

func handler(w http.ResponseWriter, r *http.Request) {
	here() // want `^r.Context\(\) \(var r \*net/http.Request\)$`
}

// A context.Context wins over a request, whatever the order.
func both(r *http.Request, ctx context.Context) {
	here() // want `^ctx \(var ctx context.Context\)$`
}

func unnamed(context.Context) {
	here() // want `^the unnamed context.Context parameter \(unnamed\)$`
}

func blank(_, c context.Context) {
	here() // want `^c \(var c context.Context\)$`
}

func ginHandler(c *gin.Context) {
	here() // want `^c.Request.Context\(\)`
}

func echoHandler(c echo.Context) error {
	here() // want `^c.Request\(\).Context\(\)`
	return nil
}

type stream interface{ Context() context.Context }

func streamed(s stream) {
	here() // want `^s.Context\(\)`
}

func generic[C context.Context](c C) {
	here() // want `^c \(var c C\)$`
}

func noContext() {
	here() // want `^none$`
}

// A test's context is the test's own.
func testing1(t *testing.T) {
	here() // want `^none$`
}

func literals(ctx context.Context) {
	func() {
		here() // want `^ctx `
	}()
	run(func() {
		here() // want `^ctx `
	})
	f := func() {
		here() // want `^ctx `
	}
	f()
	f()
	func(inner context.Context) {
		here() // want `^inner `
	}(ctx)
}

func detached(ctx context.Context) {
	go func() {
		here() // want `^none$`
	}()
	defer func() {
		here() // want `^none$`
	}()
	time.AfterFunc(time.Second, func() {
		here() // want `^none$`
	})
	var once sync.Once
	once.Do(func() {
		here() // want `^none$`
	})
	g := func() {
		here() // want `^none$`
	}
	go g()
}

// A literal stored or returned runs when the pass cannot tell.
func kept(ctx context.Context) func() {
	var hooks []func()
	hooks = append(hooks, func() {
		here() // want `^none$`
	})
	_ = hooks
	return func() {
		here() // want `^none$`
	}
}

// A detached literal's own parameter is still inherited from its caller.
func own(ctx context.Context) {
	go func(c context.Context) {
		here() // want `^none$`
	}(ctx)
}
