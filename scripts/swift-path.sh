# Sourced by every script that runs `swift`: the one place that puts the toolchain's bin
# directory on PATH (where the README's Swift 6.3 lives; a swift already on PATH comes first).
case ":$PATH:" in
  *:/opt/swift/usr/bin:*) ;;
  *) export PATH="$PATH:/opt/swift/usr/bin" ;;
esac
