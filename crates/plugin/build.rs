//! Generates the gRPC clients and servers of the plugin protocol from the
//! .proto files in `proto/`. protox compiles them in-process, so no system
//! `protoc` is needed.

fn main() {
    let files = [
        "proto/tfplugin5.proto",
        "proto/tfplugin6.proto",
        "proto/goplugin.proto",
        "proto/health.proto",
    ];
    for f in files {
        println!("cargo:rerun-if-changed={f}");
    }
    let fds =
        protox::compile(files, ["proto"]).expect("the plugin protocol's .proto files compile");
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        // The test provider implements a few calls; the rest answer Unimplemented.
        .generate_default_stubs(true)
        .compile_fds(fds)
        .expect("tonic generates code for the plugin protocol");
}
