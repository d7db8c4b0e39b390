package fix

import (
	"context"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/gofiber/fiber/v2"
	"github.com/labstack/echo/v4"
)

func ginHandler(c *gin.Context) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from c.Request.Context\(\)$`
	defer cancel()
	use(ctx)
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
