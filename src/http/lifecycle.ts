// Whether this node is shutting down: set once, read by /ready and by every answer (which then
// asks its client to close the connection, so keep-alive connections do not outlive the node).
export class Lifecycle {
  private stopping = false;
  readonly draining = () => this.stopping;
  beginDrain() {
    this.stopping = true;
  }
}
