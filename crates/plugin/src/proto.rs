//! The generated protocol types, clients and servers.

#![allow(missing_docs, clippy::all, clippy::pedantic)]

/// Protocol 5 (`tfplugin5`).
pub mod tfplugin5 {
    tonic::include_proto!("tfplugin5");
}
/// Protocol 6 (`tfplugin6`).
pub mod tfplugin6 {
    tonic::include_proto!("tfplugin6");
}
/// go-plugin's own services (`plugin`).
pub mod goplugin {
    tonic::include_proto!("plugin");
}
/// gRPC health checking (`grpc.health.v1`).
pub mod health {
    tonic::include_proto!("grpc.health.v1");
}
