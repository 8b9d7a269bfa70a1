//! One stream type for every connection the plugin protocol uses: TCP or a
//! Unix socket, with or without TLS, client or server side.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpStream, UnixStream};

/// A plain socket.
pub(crate) enum Socket {
    Tcp(TcpStream),
    Unix(UnixStream),
}

/// A connection as gRPC sees it.
pub(crate) enum Conn {
    Plain(Socket),
    Client(Box<tokio_rustls::client::TlsStream<Socket>>),
    Server(Box<tokio_rustls::server::TlsStream<Socket>>),
}

macro_rules! delegate {
    ($self:ident, $m:ident($($a:expr),*)) => {
        match $self.get_mut() {
            Socket::Tcp(s) => Pin::new(s).$m($($a),*),
            Socket::Unix(s) => Pin::new(s).$m($($a),*),
        }
    };
}

impl AsyncRead for Socket {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        delegate!(self, poll_read(cx, buf))
    }
}

impl AsyncWrite for Socket {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        delegate!(self, poll_write(cx, buf))
    }
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        delegate!(self, poll_flush(cx))
    }
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        delegate!(self, poll_shutdown(cx))
    }
}

macro_rules! delegate_conn {
    ($self:ident, $m:ident($($a:expr),*)) => {
        match $self.get_mut() {
            Conn::Plain(s) => Pin::new(s).$m($($a),*),
            Conn::Client(s) => Pin::new(s.as_mut()).$m($($a),*),
            Conn::Server(s) => Pin::new(s.as_mut()).$m($($a),*),
        }
    };
}

impl AsyncRead for Conn {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        delegate_conn!(self, poll_read(cx, buf))
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        delegate_conn!(self, poll_write(cx, buf))
    }
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        delegate_conn!(self, poll_flush(cx))
    }
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        delegate_conn!(self, poll_shutdown(cx))
    }
}

impl tonic::transport::server::Connected for Conn {
    type ConnectInfo = ();
    fn connect_info(&self) -> Self::ConnectInfo {}
}

/// The shared runtime the blocking API runs its I/O on. It is never shut
/// down, so its worker threads live as long as the process.
pub(crate) fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: std::sync::OnceLock<tokio::runtime::Runtime> = std::sync::OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("tofu-plugin-io")
            .enable_all()
            .build()
            .expect("the plugin client's runtime starts")
    })
}
