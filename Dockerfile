# The analysis service as a container image: `ransom serve` on port 8080.
#
#   docker build -t ransom .
#   docker run -p 8080:8080 -v ransom-tables:/var/lib/ransom/tablebases \
#     -v ransom-proofs:/var/lib/ransom/proofs ransom
#
# Build stage: the release binary (Rust 1.95, as Cargo.toml's rust-version).
FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY .cargo ./.cargo
COPY src ./src
COPY benches ./benches
COPY deploy ./deploy
RUN cargo build --release --locked --bin ransom

# Runtime stage: the binary, the puzzle sets, a user without privileges.
FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --user-group --create-home --home-dir /var/lib/ransom ransom \
    && mkdir -p /var/lib/ransom/tablebases /var/lib/ransom/proofs \
    && chown ransom:ransom /var/lib/ransom/tablebases /var/lib/ransom/proofs
COPY --from=build /src/target/release/ransom /usr/local/bin/ransom
COPY puzzles /usr/share/ransom/puzzles
USER ransom
WORKDIR /var/lib/ransom
# Tables (`ransom tb build --dir /var/lib/ransom/tablebases`, or copied in)
# and proofs (loaded and verified at start; new ones written here) outlive
# the container.
VOLUME ["/var/lib/ransom/tablebases", "/var/lib/ransom/proofs"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["ransom", "health", "--addr", "127.0.0.1:8080", "--timeout", "4"]
ENTRYPOINT ["ransom"]
CMD ["serve", "--bind", "0.0.0.0:8080", "--tablebases", "/var/lib/ransom/tablebases", "--proofs", "/var/lib/ransom/proofs", "--puzzles", "/usr/share/ransom/puzzles", "--log-format", "json"]
