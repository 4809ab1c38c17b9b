"""The one PNG and PPM reader of the Python tools in tests/ and packaging/ (pngdiff.py,
kms-compare.py, the remote-view and browser checks): standard library only (zlib), so it runs
on a CI machine without imaging packages and inside the VM guest.

  read_png(path) -> (width, height, channels, pixels)   8-bit RGB or RGBA, not interlaced
  read_ppm(path) -> (width, height, 3, pixels)          binary P6 with maxval 255
  read_image(path)                                      either, by the file's first bytes
  rgb(image) -> (width, height, pixels)                 three bytes a pixel
  png_bytes(width, height, rgba) -> bytes               a PNG of one colour (test icons)
"""
import struct
import zlib

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _unfilter(raw, width, height, channels):
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
            elif kind != 0:
                raise ValueError(f"unknown PNG filter {kind} in row {y}")
        rows.append(bytes(line))
        previous = line
    return b"".join(rows)


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != PNG_SIGNATURE:
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if header is None:
        raise ValueError(f"{path}: no IHDR")
    width, height, depth, colour, _, _, interlace = header
    channels = {2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace:
        raise ValueError(f"{path}: only 8-bit RGB/RGBA without interlace")
    return width, height, channels, _unfilter(zlib.decompress(idat), width, height, channels)


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while end < len(data) and not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError(f"{path}: not an 8-bit P6 PPM")
    width, height = int(fields[1]), int(fields[2])
    return width, height, 3, data[pos + 1:pos + 1 + width * height * 3]


def read_image(path):
    with open(path, "rb") as f:
        head = f.read(8)
    return read_png(path) if head == PNG_SIGNATURE else read_ppm(path)


def rgb(image):
    width, height, channels, pixels = image
    if channels == 3:
        return width, height, pixels
    out = bytearray(width * height * 3)
    out[0::3], out[1::3], out[2::3] = pixels[0::channels], pixels[1::channels], pixels[2::channels]
    return width, height, bytes(out)


def png_bytes(width, height, rgba):
    """A PNG file's bytes: 8-bit RGBA, no filter; `rgba` is a (r, g, b, a) tuple for every pixel."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = b"\x00" + bytes(rgba) * width
    return (PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))
