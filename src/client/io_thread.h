#pragma once
// An io_context with the thread that runs it. A load generator runs one per
// core and spreads its connections over them; every connection stays on the
// io_context it was created on.

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <optional>
#include <thread>

namespace sibyl::client {

class IoThread {
 public:
  IoThread();
  // Stops the context and joins the thread.
  ~IoThread();
  IoThread(const IoThread&) = delete;
  IoThread& operator=(const IoThread&) = delete;

  boost::asio::io_context& context() { return io_; }
  // Lets the thread finish once no work is left (handlers already queued still run).
  void Release() { guard_.reset(); }
  // Stops the context at once and joins the thread. Safe to call more than once.
  void Stop();

 private:
  boost::asio::io_context io_{1};  // one thread: no locking inside asio
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> guard_;
  std::thread thread_;
};

}  // namespace sibyl::client
