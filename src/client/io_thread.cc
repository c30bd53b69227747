#include "client/io_thread.h"

namespace sibyl::client {

IoThread::IoThread() : guard_(boost::asio::make_work_guard(io_)), thread_([this] { io_.run(); }) {}

IoThread::~IoThread() { Stop(); }

void IoThread::Stop() {
  guard_.reset();
  io_.stop();
  if (thread_.joinable()) thread_.join();
}

}  // namespace sibyl::client
