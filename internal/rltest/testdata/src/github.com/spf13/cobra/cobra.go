// Package cobra is a hand-written stub of github.com/spf13/cobra for
// retrylint's tests: the few declarations the tests use, signatures only.
package cobra

import "context"

// Command is a command line command.
type Command struct {
	Use  string
	Run  func(cmd *Command, args []string)
	RunE func(cmd *Command, args []string) error
}

// Context returns the context set by ExecuteContext, or
// context.Background.
func (c *Command) Context() context.Context { return nil }

// SetContext sets the command's context.
func (c *Command) SetContext(ctx context.Context) {}

// ExecuteContext runs the command with ctx.
func (c *Command) ExecuteContext(ctx context.Context) error { return nil }

// AddCommand adds sub-commands.
func (c *Command) AddCommand(cmds ...*Command) {}
