// TouchInput: see Package.swift for what this module may import.
