// Package handlers holds the positive shapes of HTTP handlers, whose
// inherited context is the request's.
package handlers

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/gofiber/fiber/v2"
	"github.com/labstack/echo/v4"
)

func use(context.Context) error { return nil }

func handle(w http.ResponseWriter, r *http.Request) {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `^context.WithTimeout starts from context.Background, discarding the deadline inherited from r.Context\(\)$`
	defer cancel()
	use(c)
}

type server struct{}

func (s *server) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from req.Context\(\)$`
	defer cancel()
	use(c)
}

// A handler literal registered in main inherits its own request.
func register(mux *http.ServeMux) {
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from r.Context\(\)$`
		defer cancel()
		use(c)
	})
}

func ginHandler(c *gin.Context) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from c.Request.Context\(\)$`
	defer cancel()
	use(ctx)
}

func ginRoutes(r *gin.Engine) {
	r.GET("/x", func(gc *gin.Context) {
		ctx, cancel := context.WithTimeout(context.TODO(), time.Second) // want `^context.WithTimeout starts from context.TODO, discarding the deadline inherited from gc.Request.Context\(\)$`
		defer cancel()
		use(ctx)
	})
}

func echoHandler(c echo.Context) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from c.Request\(\).Context\(\)$`
	defer cancel()
	return use(ctx)
}

func fiberHandler(c *fiber.Ctx) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from c.UserContext\(\)$`
	defer cancel()
	return use(ctx)
}

// chi handlers are plain net/http handlers.
func chiStyle() http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(time.Second)) // want `^context.WithDeadline starts from context.Background, discarding the deadline inherited from r.Context\(\)$`
		defer cancel()
		use(ctx)
	}
}
