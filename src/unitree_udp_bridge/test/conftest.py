import os
import tempfile

# hypothesis keeps a cache; not in src/ (the build stamp hashes every file there)
os.environ.setdefault('HYPOTHESIS_STORAGE_DIRECTORY',
                      os.path.join(tempfile.gettempdir(), 'robozoo-hypothesis'))
